import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './free-port.js';

/** Debian's `dovecot-imapd` puts the server here; `.ci/run` installs it when missing. */
export const DOVECOT_BINARY = '/usr/sbin/dovecot';

/** Whether the IMAP tests can run here; outside CI they skip (saying why) without it, in CI they fail. */
export const dovecotInstalled = existsSync(DOVECOT_BINARY);
export const DOVECOT_MISSING = `${DOVECOT_BINARY} is missing: IMAP tests skipped (apt-get install dovecot-imapd to run them)`;

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  /** A logged-in client of the test user, for the test to append and look; logged out by `stop`. */
  client(): Promise<ImapFlow>;
  /** Appends a message to a folder (created if missing); answers its UID. */
  append(folder: string, raw: Buffer | string, flags?: string[]): Promise<number>;
  /** UIDs and flags of a folder's messages. */
  list(folder: string): Promise<{ uid: number; seen: boolean }[]>;
  stop(): Promise<void>;
}

function systemUser(name: string): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return line ? { uid: Number(uid), gid: Number(gid) } : null;
}

/**
 * Who the instance runs as. Dovecot refuses to run its login process as root and to serve mail
 * as uid 0, so under root (CI containers) it takes the package's own users and `nobody` for the
 * mail; otherwise everything runs as the current user.
 */
function identities(): { internal: string; login: string; mail: { uid: number; gid: number } } {
  const me = userInfo();
  if (me.uid !== 0) {
    return { internal: me.username, login: me.username, mail: { uid: me.uid, gid: me.gid } };
  }
  const nobody = systemUser('nobody') ?? { uid: 65534, gid: 65534 };
  return {
    internal: systemUser('dovecot') ? 'dovecot' : 'nobody',
    login: systemUser('dovenull') ? 'dovenull' : 'nobody',
    mail: nobody,
  };
}

async function waitForPort(port: number, process: ChildProcess, log: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (process.exitCode !== null) {
      break;
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const output = existsSync(log) ? readFileSync(log, 'utf8') : '(no log)';
  throw new Error(`Dovecot did not start on 127.0.0.1:${port}:\n${output}`);
}

/**
 * A private Dovecot on a free loopback port: its own configuration in a temporary folder (no
 * system configuration is read), one test user from a passwd file, maildirs in that folder, no
 * TLS. Stopped, and its folder removed, by `stop`.
 */
export async function startDovecot(): Promise<Dovecot> {
  if (!dovecotInstalled) {
    throw new Error(`${DOVECOT_BINARY} is missing: install dovecot-imapd (CI requires the IMAP tests to run)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-dovecot-'));
  chmodSync(dir, 0o755);
  const who = identities();
  const mail = join(dir, 'mail');
  for (const sub of ['run', 'state', 'mail']) {
    mkdirSync(join(dir, sub));
  }
  chownSync(mail, who.mail.uid, who.mail.gid);
  const user = 'support';
  const password = 'imap-test-password';
  const passwd = join(dir, 'passwd');
  writeFileSync(passwd, `${user}:{PLAIN}${password}:${who.mail.uid}:${who.mail.gid}::${mail}/${user}\n`, { mode: 0o644 });
  const port = await freePort();
  const log = join(dir, 'dovecot.log');
  const config = join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    [
      'protocols = imap',
      'listen = 127.0.0.1',
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `instance_name = switchboard-test-${port}`,
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      `default_internal_user = ${who.internal}`,
      `default_login_user = ${who.login}`,
      'first_valid_uid = 1',
      `log_path = ${log}`,
      'mail_location = maildir:~/Maildir',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${passwd}`,
      '}',
      'userdb {',
      '  driver = passwd-file',
      `  args = username_format=%u ${passwd}`,
      '}',
      'service imap-login {',
      '  chroot =',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${port}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const server = spawn(DOVECOT_BINARY, ['-F', '-c', config], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await waitForPort(port, server, log);

  const clients: ImapFlow[] = [];
  const client = async () => {
    const imap = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
    imap.on('error', () => undefined);
    await imap.connect();
    clients.push(imap);
    return imap;
  };
  let shared: ImapFlow | undefined;
  const session = async () => {
    shared ??= await client();
    return shared;
  };

  return {
    port,
    user,
    password,
    client,
    async append(folder, raw, flags = []) {
      const imap = await session();
      if (folder !== 'INBOX') {
        await imap.mailboxCreate(folder).catch(() => undefined);
      }
      const appended = await imap.append(folder, raw, flags);
      return appended ? Number(appended.uid) : 0;
    },
    async list(folder) {
      const imap = await session();
      const lock = await imap.getMailboxLock(folder);
      try {
        const found: { uid: number; seen: boolean }[] = [];
        if (imap.mailbox && imap.mailbox.exists > 0) {
          for await (const message of imap.fetch('1:*', { uid: true, flags: true })) {
            // Unsolicited FETCH responses (another connection changed flags) come without a UID.
            if (typeof message.uid === 'number') {
              found.push({ uid: message.uid, seen: message.flags?.has('\\Seen') ?? false });
            }
          }
        }
        return found;
      } finally {
        lock.release();
      }
    },
    async stop() {
      await Promise.allSettled(clients.map((imap) => imap.logout()));
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
