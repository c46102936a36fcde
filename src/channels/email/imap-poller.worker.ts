import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { FetchMessageObject, ImapFlow, ImapFlowOptions } from 'imapflow';
import { backoffMs } from '../../db/job-queue.js';
import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import { resolveImapTarget } from '../../lib/imap-target.js';
import { loadOnce } from '../../lib/load-once.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { storableText } from '../../lib/storable-text.js';
import { findRoutingMailbox, type RoutingMailbox } from '../../platform/mailboxes/mailbox.lookup.js';
import { imapPasswordAad } from '../../platform/mailboxes/mailbox.service.js';
import { countImapMessageAttempt, forgetImapMessageAttempts } from './imap-message-attempt.repository.js';
import {
  advanceImapCursor,
  type ClaimedImapMailbox,
  claimDueImapMailbox,
  finishImapPoll,
  resetImapCursor,
} from './imap-poll.repository.js';
import { type InboundDeps, ingestMessage, recordUnreadableMessage, UnreadableMessageError } from './inbound.service.js';
import { derivedMessageId, parseInboundHead, parseInboundMessage } from './inbound-message.js';

/** imapflow, imported for the first IMAP mailbox a process polls. */
const loadImapFlow = loadOnce(() => import('imapflow'));

export interface ImapPollerDeps extends InboundDeps {
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface ImapPollerOptions {
  /** How long a claim holds before another poller may take the mailbox; renewed with each message taken. */
  leaseMs?: number;
  /** Messages one poll takes from a mailbox; the rest wait for its next turn, which comes at once. */
  messagesPerPoll?: number;
  /** Mailboxes one pass polls, one after the other. */
  mailboxesPerPass?: number;
  /** Wait after a failed poll, doubling with each further failure in a row, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Connect, greeting and idle-socket timeouts of the IMAP connection. */
  timeoutMs?: number;
}

export interface ImapPoller {
  start(): void;
  stop(): Promise<void>;
  /** One pass: polls the IMAP mailboxes that are due; resolves to how many it polled. */
  runOnce(): Promise<number>;
}

const MAX_ERROR_LENGTH = 1000;
/** Failed attempts at filing one message before it is set aside (the poll backs off between them). */
export const MAX_MESSAGE_ATTEMPTS = 8;

/** Why a poll stopped short: the lease went to another poller, which carries on from the cursor. */
class LeaseLostError extends Error {}

/** What the poller's steps share: its deps and what is fixed when it starts. */
interface PollerContext {
  deps: ImapPollerDeps;
  box: ReturnType<typeof createSecretBox>;
  policy: ReturnType<typeof parseOutboundPolicy>;
  /** `INBOUND_MAX_BYTES`. */
  limit: number;
  timeoutMs: number;
}

/** Connects and logs in to the mailbox's IMAP server, through the outbound policy. */
async function connect(context: PollerContext, mailbox: ClaimedImapMailbox): Promise<ImapFlow> {
  const { box, policy, timeoutMs, limit, deps } = context;
  const password = box.open(mailbox.imap_password_encrypted ?? '', imapPasswordAad(mailbox.id));
  if (password === null) {
    throw new Error('the stored IMAP password cannot be opened with this SECRET_KEY: enter it again');
  }
  const port = Number(mailbox.imap_port);
  const tls = Boolean(mailbox.imap_tls);
  const target = await resolveImapTarget(mailbox.imap_host ?? '', port, policy);
  const { ImapFlow: Client } = await loadImapFlow();
  const settings: ImapFlowOptions & { doSTARTTLS?: boolean } = {
    host: target.host,
    port,
    secure: tls,
    ...(target.servername ? { servername: target.servername } : {}),
    // The password never travels in the clear, except to a host OUTBOUND_ALLOWED_HOSTS names.
    ...(!tls && target.requireStartTls ? { doSTARTTLS: true } : {}),
    auth: { user: mailbox.imap_user ?? '', pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 4,
    maxLiteralSize: limit + 1024 * 1024,
  };
  const client = new Client(settings);
  // A connection error after connect() is reported here; unheard, it would end the process.
  client.on('error', (error: unknown) => deps.log.warn({ err: error, mailboxId: mailbox.id }, 'IMAP connection error'));
  await client.connect();
  return client;
}

/**
 * Files one message of the folder: over `INBOUND_MAX_BYTES` it is recorded by its envelope and
 * never fetched; otherwise its headers are fetched first, and its whole source only when the
 * ingest takes it in. One that cannot be read is recorded as such rather than stop the mailbox.
 */
async function file(
  context: PollerContext,
  client: ImapFlow,
  mailbox: RoutingMailbox,
  item: FetchMessageObject,
  fallbackId: string,
): Promise<void> {
  const { deps, limit } = context;
  const envelope = {
    messageId: item.envelope?.messageId?.replace(/^<|>$/g, '') || null,
    from: { address: item.envelope?.from?.[0]?.address ?? null, name: item.envelope?.from?.[0]?.name ?? null },
    subject: item.envelope?.subject ?? '',
    size: item.size ?? 0,
  };
  if (envelope.size > limit) {
    await recordUnreadableMessage(deps, mailbox, envelope, fallbackId, { disposition: 'too_large' });
    return;
  }
  const fetchedHead = await client.fetchOne(String(item.uid), { uid: true, headers: true }, { uid: true });
  const headers = fetchedHead ? fetchedHead.headers : undefined;
  if (!headers || headers.length === 0) {
    return;
  }
  // Without a Message-ID, its header block names it (the same message fetched again has the same).
  const head = await parseInboundHead(headers, derivedMessageId(createHash('sha256').update(headers).digest('hex')));
  let source: Buffer | undefined;
  const read = async () => {
    const fetched = await client.fetchOne(String(item.uid), { uid: true, source: true }, { uid: true });
    source = fetched ? fetched.source : undefined;
    if (!source || source.length === 0) {
      throw new UnreadableMessageError('the message is gone from the folder, or empty');
    }
    try {
      return await parseInboundMessage(source);
    } catch (error) {
      throw new UnreadableMessageError('the message is not readable MIME', { cause: error });
    }
  };
  try {
    await ingestMessage(deps, { message: { head, size: envelope.size, read }, mailbox, recipients: [mailbox.address] });
  } catch (error) {
    if (!(error instanceof UnreadableMessageError)) {
      throw error;
    }
    deps.log.warn({ err: error.cause, mailboxId: mailbox.id, uid: item.uid }, 'IMAP message could not be parsed');
    const raw = source ?? Buffer.alloc(0);
    await recordUnreadableMessage(deps, mailbox, envelope, fallbackId, { disposition: 'unreadable', raw });
  }
}

/**
 * Files a message, its attempt counted first (so a poller that dies filing it counts too). One
 * that failed `MAX_MESSAGE_ATTEMPTS` times is set aside as `unreadable`, its bytes kept, so the
 * mailbox's later messages come in; should even that fail, the mailbox goes past it anyway.
 */
async function fileCounted(
  context: PollerContext,
  client: ImapFlow,
  mailbox: RoutingMailbox,
  at: { item: FetchMessageObject; uidValidity: number },
) {
  const { deps, limit } = context;
  const { item } = at;
  const fallbackId = `imap-${mailbox.id}-${at.uidValidity}-${item.uid}@switchboard.invalid`.toLowerCase();
  const key = { mailboxId: mailbox.id, uidValidity: at.uidValidity, uid: item.uid };
  if ((await countImapMessageAttempt(deps.db, key, deps.clock.now().toISOString())) <= MAX_MESSAGE_ATTEMPTS) {
    await file(context, client, mailbox, item, fallbackId);
  } else {
    deps.log.warn(
      { mailboxId: mailbox.id, uid: item.uid },
      `IMAP message set aside after ${MAX_MESSAGE_ATTEMPTS} failed attempts`,
    );
    // Its bytes are kept only within the size limit, as any message's are.
    const source =
      (item.size ?? 0) > limit
        ? undefined
        : await client
            .fetchOne(String(item.uid), { uid: true, source: true }, { uid: true })
            .then((fetched) => (fetched ? fetched.source : undefined))
            .catch(() => undefined);
    const envelope = {
      messageId: storableText(item.envelope?.messageId?.replace(/^<|>$/g, '') ?? '') || null,
      from: { address: item.envelope?.from?.[0]?.address ?? null, name: item.envelope?.from?.[0]?.name ?? null },
      subject: item.envelope?.subject ?? '',
      size: item.size ?? 0,
    };
    await recordUnreadableMessage(deps, mailbox, envelope, fallbackId, {
      disposition: 'unreadable',
      raw: source ?? Buffer.alloc(0),
    }).catch((error: unknown) => deps.log.error({ err: error, mailboxId: mailbox.id, uid: item.uid }, 'IMAP message not kept'));
  }
  await forgetImapMessageAttempts(deps.db, key);
}

/**
 * How a poll ended, for the mailbox: due again at once when more messages wait, after
 * `IMAP_POLL_MS` otherwise, and after a backoff that grows with each failure in a row.
 */
function pollEnd(
  deps: ImapPollerDeps,
  options: Pick<ImapPollerOptions, 'baseDelayMs' | 'maxDelayMs'>,
  mailbox: ClaimedImapMailbox,
  polled: { failure: unknown; more: boolean },
) {
  const { failure, more } = polled;
  const now = deps.clock.now();
  const failures = failure === undefined ? 0 : Number(mailbox.imap_failures) + 1;
  const delay =
    failure === undefined ? (more ? 0 : deps.config.IMAP_POLL_MS) : backoffMs(failures, options.baseDelayMs, options.maxDelayMs);
  // The server's words may be in it: text from outside, made storable.
  const error =
    failure === undefined
      ? null
      : storableText(failure instanceof Error ? failure.message : String(failure)).slice(0, MAX_ERROR_LENGTH);
  return { at: now.toISOString(), nextPollAt: new Date(now.getTime() + delay).toISOString(), error, failures };
}

/**
 * The IMAP side of the email channel, in every process. A poll claims one due mailbox with a
 * lease (a conditional UPDATE, as the outbox claims messages), fetches what is above the stored
 * UID (from 0 again when the folder's UIDVALIDITY changed), and for each message in UID order:
 * files it (`ingestMessage`, which commits), marks it \Seen or moves it, then moves the cursor
 * past it and renews the lease. A poller that dies between commit and cursor leaves the message
 * to be fetched again, and its Message-ID is recognised; so is a message two pollers take when
 * a lease ran out. Failures are recorded on the mailbox (`imap_last_error`) and polls back off.
 */
export function createImapPoller(deps: ImapPollerDeps, options: ImapPollerOptions = {}): ImapPoller {
  const leaseMs = options.leaseMs ?? 300_000;
  const messagesPerPoll = options.messagesPerPoll ?? 50;
  const mailboxesPerPass = options.mailboxesPerPass ?? 10;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const context: PollerContext = {
    deps,
    box: createSecretBox(deps.secretKey),
    policy: parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS),
    limit: deps.config.INBOUND_MAX_BYTES,
    timeoutMs,
  };

  /** Takes up to `messagesPerPoll` new messages; answers whether more were waiting. */
  async function take(client: ImapFlow, mailbox: ClaimedImapMailbox, lease: { lockedUntil: string }): Promise<boolean> {
    const folder = mailbox.imap_folder ?? 'INBOX';
    const routing = await findRoutingMailbox(deps.db, mailbox.id);
    if (!routing) {
      return false;
    }
    const lock = await client.getMailboxLock(folder);
    try {
      const opened = client.mailbox;
      const uidValidity = opened ? Number(opened.uidValidity) : 0;
      let lastUid = Number(mailbox.imap_last_uid ?? 0);
      if (mailbox.imap_uid_validity === null || Number(mailbox.imap_uid_validity) !== uidValidity) {
        lastUid = 0;
        if (!(await resetImapCursor(deps.db, mailbox.id, lease.lockedUntil, uidValidity))) {
          throw new LeaseLostError();
        }
      }
      const waiting: FetchMessageObject[] = [];
      // Listed first, fetched after: imapflow runs no other command inside a fetch's iteration.
      for await (const item of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true, envelope: true }, { uid: true })) {
        if (item.uid > lastUid) {
          waiting.push(item);
        }
      }
      waiting.sort((a, b) => a.uid - b.uid);
      let movedFolderReady = false;
      for (const item of waiting.slice(0, messagesPerPoll)) {
        await fileCounted(context, client, routing, { item, uidValidity });
        if (mailbox.imap_processed_folder) {
          if (!movedFolderReady) {
            await client.mailboxCreate(mailbox.imap_processed_folder).catch(() => undefined);
            movedFolderReady = true;
          }
          await client.messageMove(String(item.uid), mailbox.imap_processed_folder, { uid: true });
        } else {
          await client.messageFlagsAdd(String(item.uid), ['\\Seen'], { uid: true });
        }
        const renewedUntil = new Date(deps.clock.now().getTime() + leaseMs).toISOString();
        const cursor = { uidValidity, lastUid: item.uid };
        if (!(await advanceImapCursor(deps.db, mailbox.id, { lockedUntil: lease.lockedUntil, renewedUntil }, cursor))) {
          throw new LeaseLostError();
        }
        lease.lockedUntil = renewedUntil;
      }
      return waiting.length > messagesPerPoll;
    } finally {
      lock.release();
    }
  }

  async function poll(mailbox: ClaimedImapMailbox, lockedUntil: string): Promise<void> {
    const lease = { lockedUntil };
    let client: ImapFlow | undefined;
    let more = false;
    let failure: unknown;
    try {
      client = await connect(context, mailbox);
      more = await take(client, mailbox, lease);
      await client.logout();
    } catch (error) {
      failure = error;
      client?.close();
    }
    if (failure instanceof LeaseLostError) {
      return;
    }
    const end = pollEnd(deps, options, mailbox, { failure, more });
    if (failure !== undefined) {
      deps.log.warn({ err: failure, mailboxId: mailbox.id, failures: end.failures }, 'IMAP poll failed');
    }
    await finishImapPoll(deps.db, mailbox.id, lease.lockedUntil, end);
  }

  async function runOnce(): Promise<number> {
    let polled = 0;
    while (polled < mailboxesPerPass) {
      const now = deps.clock.now();
      const lockedUntil = new Date(now.getTime() + leaseMs).toISOString();
      const mailbox = await claimDueImapMailbox(deps.db, { now: now.toISOString(), lockedUntil });
      if (!mailbox) {
        break;
      }
      polled++;
      await poll(mailbox, lockedUntil);
    }
    return polled;
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: Math.min(deps.config.IMAP_POLL_MS, 10_000),
    batchSize: mailboxesPerPass,
    onError: (error) => deps.log.error({ err: error }, 'IMAP polling pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
