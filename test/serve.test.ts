import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSqlite, type DatabaseHandle } from '../src/db/connect.js';
import type { DB } from '../src/db/database.js';
import type { Dialect } from '../src/db/dialect.js';
import { DIALECTS } from './dialects.js';
import { createTestDatabase } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY_LINE = /^Admin API key \(shown only this once\): (sbk_[a-z2-7]{8}_[\w-]{43})$/m;
const LISTENING = /"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"/;
const UNAUTHORIZED = { statusCode: 401, message: 'User is not authenticated!', error: 'Unauthorized' };
const TEST_SECRET_KEY = '5e'.repeat(32);

/** Listens on a port the system picks; returns it. */
async function listenOnAnyPort(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('not listening on a TCP port');
  }
  return address.port;
}

/** A port nobody listens on right now: bind to 0, read it, let it go. */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listenOnAnyPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  /** Settles once the process is gone and its output read. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ServerProcess>();

/** How the process runs: from the sources as `npm run dev` does, or built, as `npm start` does. */
const ENTRY_ARGS = {
  sources: ['--import', 'tsx', 'src/cli.ts'],
  bundle: ['bin/switchboard.js'],
} as const;

/** `switchboard serve` as a real process. */
function spawnServe(env: Record<string, string>, entry: keyof typeof ENTRY_ARGS = 'sources'): ServerProcess {
  const child = spawn(process.execPath, [...ENTRY_ARGS[entry], 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  const server: ServerProcess = {
    child,
    stdout: '',
    stderr: '',
    closed: new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal }))),
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    server.stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    server.stderr += chunk;
  });
  running.add(server);
  void server.closed.then(() => running.delete(server));
  return server;
}

function gone(server: ServerProcess): boolean {
  return server.child.exitCode !== null || server.child.signalCode !== null;
}

/** Resolves with the first match of `pattern` in stdout; rejects when the process ends or time runs out. */
function waitForStdout(server: ServerProcess, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no ${pattern} on stdout within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const match = pattern.exec(server.stdout);
      if (match) {
        finish(null, match);
      }
    };
    const onClose = () => finish(new Error(`the server ended before printing ${pattern}`));
    function finish(error: Error | null, match?: RegExpExecArray) {
      clearTimeout(timer);
      server.child.stdout.off('data', check);
      server.child.off('close', onClose);
      if (match) {
        resolve(match);
      } else {
        reject(new Error(`${error?.message}\nstdout:\n${server.stdout}\nstderr:\n${server.stderr}`));
      }
    }
    server.child.stdout.on('data', check);
    server.child.once('close', onClose);
    check();
    if (gone(server)) {
      onClose();
    }
  });
}

async function exitWithin(server: ServerProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms\nstdout:\n${server.stdout}`)), ms);
  });
  try {
    return await Promise.race([server.closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the server and waits until it listens; returns the first-start key when it printed one. */
async function startServe(
  env: Record<string, string>,
  entry: keyof typeof ENTRY_ARGS = 'sources',
): Promise<{ server: ServerProcess; key?: string }> {
  const server = spawnServe(env, entry);
  await waitForStdout(server, LISTENING);
  return { server, key: KEY_LINE.exec(server.stdout)?.[1] };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await exitWithin(server, 10_000)).toEqual({ code: 0, signal: null });
  expect(logMessages(server)).toContain('shutting down');
}

/** The `msg` of every pino line on stdout, in order. */
function logMessages(server: ServerProcess): string[] {
  return server.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

/** An empty data folder (SQLite) or a fresh, migrated database nothing has started on (PostgreSQL). */
async function freshDatabase(
  dialect: Dialect,
): Promise<{ env: Record<string, string>; db(): Kysely<DB>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase('postgres');
    if (!database.url) {
      throw new Error('createTestDatabase gave no PostgreSQL URL');
    }
    // PostgreSQL needs SECRET_KEY: the server refuses to start without one.
    return { env: { DATABASE_URL: database.url, SECRET_KEY: TEST_SECRET_KEY }, db: () => database.db, drop: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-serve-'));
  let handle: DatabaseHandle | undefined;
  return {
    env: { DATA_DIR: dir },
    db: () => {
      handle ??= connectSqlite(join(dir, 'switchboard.db'));
      return handle.db;
    },
    drop: async () => {
      await handle?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Any server a test left running is killed, so a failed test never leaks a process. */
afterEach(async () => {
  for (const server of running) {
    if (!gone(server)) {
      server.child.kill('SIGKILL');
    }
    await server.closed;
  }
});

describe.each(DIALECTS)('switchboard serve on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let firstKey: string | undefined;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('prints a first-start key, serves the API with it, and exits 0 on SIGTERM after the request in flight', async () => {
    const port = await freePort();
    // Debug level logs each request's arrival, which the in-flight case below waits for.
    const { server, key } = await startServe({ ...database.env, PORT: String(port), LOG_LEVEL: 'debug' });
    const base = `http://127.0.0.1:${port}`;
    expect(key).toBeDefined();
    firstKey = key;
    expect(server.stdout).toContain(`curl -H "x-api-key: ${key}" ${base}/v1/users/me`);

    const me = await fetch(`${base}/v1/users/me`, { headers: { 'x-api-key': key ?? '' } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { data: { user: { email: string; userType: string }; organization: { name: string } } };
    expect(body.data.user).toMatchObject({ email: 'admin@switchboard.local', userType: 'ORG_ADMIN' });
    expect(body.data.organization.name).toBe('Default organization');

    const anonymous = await fetch(`${base}/v1/users/me`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(UNAUTHORIZED);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const docs = await fetch(`${base}/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await docs.text()).toMatch(/<html/i);

    // A request whose body is still arriving when SIGTERM comes: Fastify has it, no answer yet.
    const slow = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/in-flight',
      agent: false,
      headers: { 'x-api-key': key ?? '', 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const response = new Promise<{ status?: number; body: string }>((resolve, reject) => {
      slow.on('error', reject);
      slow.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
      });
    });
    slow.write('{"half":');
    await waitForStdout(server, /"url":"\/v1\/in-flight".*"msg":"request received"/);

    server.child.kill('SIGTERM');
    await waitForStdout(server, /"msg":"shutting down"/);
    expect(gone(server)).toBe(false);
    slow.end('true}');
    const answered = await response;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.body)).toEqual({ statusCode: 404, message: 'Cannot POST /v1/in-flight', error: 'Not Found' });

    expect(await exitWithin(server, 10_000)).toEqual({ code: 0, signal: null });
    const messages = logMessages(server);
    expect(messages.indexOf('shutting down')).toBeLessThan(messages.lastIndexOf('request finished'));
    expect(server.stderr).toBe('');
  });

  it.runIf(dialect === 'sqlite')('keeps the generated secret key under DATA_DIR, readable by its owner only', () => {
    const dir = database.env.DATA_DIR ?? '';
    const mode = statSync(join(dir, 'secret.key')).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prints no key on a later start: the first-start organization is made once', async () => {
    expect(firstKey, 'the first start ran on this database').toBeDefined();
    const port = await freePort();
    const { server, key } = await startServe({ ...database.env, PORT: String(port) });
    expect(key).toBeUndefined();
    expect(server.stdout).not.toContain('sbk_');
    const me = await fetch(`http://127.0.0.1:${port}/v1/users/me`, { headers: { 'x-api-key': firstKey ?? '' } });
    expect(me.status).toBe(200);
    await stop(server);
  });

  it('shows the first-start key even when it cannot listen', async () => {
    const other = await freshDatabase(dialect);
    const blocker = createServer();
    try {
      const taken = await listenOnAnyPort(blocker);
      const failed = spawnServe({ ...other.env, PORT: String(taken) });
      expect(await exitWithin(failed, 20_000)).toEqual({ code: 1, signal: null });
      expect(failed.stderr).toContain('EADDRINUSE');
      const key = KEY_LINE.exec(failed.stdout)?.[1] ?? '';
      expect(key).toMatch(/^sbk_/);
      const stored = await other
        .db()
        .selectFrom('api_keys')
        .select(['revoked_at'])
        .where('prefix', '=', key.slice(0, 12))
        .executeTakeFirst();
      expect(stored).toEqual({ revoked_at: null });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      await other.drop();
    }
  });
});
// The tests run the sources; `npm start` runs them bundled into dist/switchboard.js, with the
// packages loaded on first use left in node_modules. This runs the bundle (built by the global
// setup when the sources are newer) through what a first day touches: the key, the console's
// files, the API reference, and a comment in HTML, whose converters load on first use.
describe.each(DIALECTS)('the built server (bin/switchboard.js) on %s', (dialect) => {
  it('serves the API, the console and the reference, and converts a comment with the libraries it loads on first use', async () => {
    const database = await freshDatabase(dialect);
    try {
      const port = await freePort();
      const { server, key } = await startServe({ ...database.env, PORT: String(port) }, 'bundle');
      const base = `http://127.0.0.1:${port}`;
      const headers = { 'x-api-key': key ?? '', 'content-type': 'application/json' };

      const me = await fetch(`${base}/v1/users/me`, { headers });
      expect(me.status).toBe(200);
      const consolePage = await fetch(`${base}/app/`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toMatch(/<script type="module"[^>]* src="\/app\/assets\/[^"]+\.js"/);
      const docs = await fetch(`${base}/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toMatch(/<html/i);

      const team = await fetch(`${base}/v1/teams`, { method: 'POST', headers, body: JSON.stringify({ name: 'Support' }) });
      expect(team.status).toBe(201);
      const { data: support } = (await team.json()) as { data: { id: string } };
      const ticket = await fetch(`${base}/v1/tickets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Printer', requestorEmail: 'ana@example.com', teamId: support.id }),
      });
      expect(ticket.status).toBe(201);
      const { data: created } = (await ticket.json()) as { data: { id: string } };
      const comment = await fetch(`${base}/v1/tickets/${created.id}/comment`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ contentHtml: '<p>Try <b>turning it off</b><script>alert(1)</script></p>' }),
      });
      expect(comment.status).toBe(201);
      const { data: written } = (await comment.json()) as { data: { content: string; contentHtml: string } };
      expect(written.content).toBe('Try turning it off');
      expect(written.contentHtml).toBe('<p>Try <b>turning it off</b></p>');

      await stop(server);
      expect(server.stderr).toBe('');
    } finally {
      await database.drop();
    }
  });
});

describe('switchboard serve with a bad environment', () => {
  it('refuses PostgreSQL without SECRET_KEY: exit 1, one stderr line naming it', async () => {
    const server = spawnServe({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      DATA_DIR: join(tmpdir(), 'switchboard-never-created'),
    });
    expect(await exitWithin(server, 20_000)).toEqual({ code: 1, signal: null });
    const lines = server.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^switchboard: SECRET_KEY is required when DATABASE_URL is set/);
    expect(server.stdout).toBe('');
  });

  it('exits 1 with one stderr line naming PORT', async () => {
    const server = spawnServe({ PORT: 'abc', DATA_DIR: join(tmpdir(), 'switchboard-never-created') });
    expect(await exitWithin(server, 20_000)).toEqual({ code: 1, signal: null });
    const lines = server.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
    expect(server.stdout).toBe('');
  });
});
