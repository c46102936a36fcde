import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { parseReplyAddress } from '../../delivery/outbound/reply-address.js';
import { loadOnce } from '../../lib/load-once.js';
import { findVerifiedMailbox, type RoutingMailbox } from '../../platform/mailboxes/mailbox.lookup.js';
import {
  type InboundDeps,
  ingestMessage,
  MailboxUnavailableError,
  type ReceivedMessage,
  UnreadableMessageError,
} from './inbound.service.js';
import {
  derivedMessageId,
  type InboundHead,
  type InboundMessage,
  parseInboundHead,
  parseInboundMessage,
  plainAddress,
} from './inbound-message.js';
import { type ByteBudget, createByteBudget, type SpooledMessage, spoolMessage } from './smtp-spool.js';

/** smtp-server, imported when the receiver starts (it runs only with `SMTP_INBOUND_PORT`). */
const loadSmtpServer = loadOnce(() => import('smtp-server'));

export interface SmtpReceiverOptions {
  port: number;
  host: string;
  /** PEM certificate and key: STARTTLS is offered when given. */
  tls?: { cert: Buffer; key: Buffer };
  /** Connections at once; more are turned away with 421. */
  maxClients?: number;
  /** Recipients of one message; more get 452, as RFC 5321 asks. */
  maxRecipients?: number;
  /** Where messages are written as they arrive; default a temporary folder of its own, removed on close. */
  spoolDir?: string;
  /** Bytes of messages read into memory at once across connections; default twice `INBOUND_MAX_BYTES`. */
  readBudgetBytes?: number;
}

export interface SmtpReceiver {
  port: number;
  /** Stops taking connections and waits for those open to finish. */
  close(): Promise<void>;
}

/** An SMTP reply: smtp-server answers the command with this code and text. */
function reply(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/**
 * The mailbox a recipient names: a mailbox's address, or a ticket's reply address made from one
 * (`support+bill-1.<signature>@…`; its signature is checked when the message is filed).
 */
async function mailboxOfRecipient(deps: InboundDeps, address: string): Promise<RoutingMailbox | undefined> {
  const direct = await findVerifiedMailbox(deps.db, address);
  if (direct) {
    return direct;
  }
  const token = parseReplyAddress(address);
  return token ? findVerifiedMailbox(deps.db, token.mailboxAddress) : undefined;
}

type ReceiverDeps = InboundDeps & { log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> };

/** Files a message for each organization among its accepted recipients, one after the other; answers the 250's text. */
async function deliver(
  deps: ReceiverDeps,
  session: SMTPServerSession,
  accepted: ReadonlyMap<string, RoutingMailbox>,
  message: ReceivedMessage,
): Promise<string> {
  const byOrganization = new Map<string, { mailbox: RoutingMailbox; addresses: string[] }>();
  for (const [address, mailbox] of accepted) {
    const entry = byOrganization.get(mailbox.organization_id) ?? { mailbox, addresses: [] };
    entry.addresses.push(address);
    byOrganization.set(mailbox.organization_id, entry);
  }
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '';
  const stored: string[] = [];
  for (const { mailbox, addresses } of byOrganization.values()) {
    try {
      const outcome = await ingestMessage(deps, { message, mailbox, recipients: addresses, envelopeFrom });
      stored.push(outcome.duplicate ? 'duplicate' : outcome.disposition);
    } catch (error) {
      if (error instanceof UnreadableMessageError) {
        deps.log.warn({ err: error.cause, smtpSession: session.id }, 'inbound message could not be parsed');
        throw reply(554, '5.6.0 Message could not be parsed');
      }
      if (error instanceof MailboxUnavailableError) {
        throw reply(451, '4.2.1 Mailbox temporarily unavailable, try again later');
      }
      deps.log.error({ err: error, smtpSession: session.id, mailboxId: mailbox.id }, 'inbound message could not be stored');
      throw reply(451, '4.3.0 Message could not be stored, try again later');
    }
  }
  return `Message accepted (${stored.join(', ')})`;
}

/**
 * A spooled message to the ingest: its headers parsed now, its body read from the spool (once,
 * within the byte budget) only if an organization takes it in.
 */
async function receive(
  deps: ReceiverDeps & { budget: ByteBudget },
  session: SMTPServerSession,
  accepted: ReadonlyMap<string, RoutingMailbox>,
  spooled: SpooledMessage,
): Promise<string> {
  if (spooled.blank) {
    throw reply(554, '5.6.0 Empty message');
  }
  let head: InboundHead;
  try {
    head = await parseInboundHead(spooled.head, derivedMessageId(spooled.sha256));
  } catch (error) {
    deps.log.warn({ err: error, smtpSession: session.id }, 'inbound message headers could not be parsed');
    throw reply(554, '5.6.0 Message could not be parsed');
  }
  let reserved = 0;
  let parsed: Promise<InboundMessage> | undefined;
  const read = async () => {
    await deps.budget.acquire(spooled.size);
    reserved = spooled.size;
    try {
      return await parseInboundMessage(await readFile(spooled.path));
    } catch (error) {
      throw new UnreadableMessageError('the message is not readable MIME', { cause: error });
    }
  };
  try {
    // Read once, whichever organization's delivery asks first.
    return await deliver(deps, session, accepted, { head, size: spooled.size, read: () => (parsed ??= read()) });
  } finally {
    if (reserved > 0) {
      deps.budget.release(reserved);
    }
  }
}

/**
 * The built-in receiver, an MX for the mailboxes' addresses (no authentication, as an MX takes
 * mail from anyone): unknown recipients, and addresses of unverified mailboxes, are refused at
 * RCPT TO with 550. A message is written to a spool file as it arrives, never held in memory; past
 * `INBOUND_MAX_BYTES` (SIZE is advertised) it is dropped at once and answered 552. Its headers
 * decide what it is before its body is read (a loop, a bounce or a flood is kept by its headers
 * alone, `inbound.service.ts`), and bodies are read a budget of bytes at a time across
 * connections. A message is answered 250 only once it is committed, one organization after the
 * other; a failure before that is a 4xx, so the sender retries, and a retry of what was committed
 * is recognised by its Message-ID.
 */
export async function startSmtpReceiver(deps: ReceiverDeps, options: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const { SMTPServer: Server } = await loadSmtpServer();
  const limit = deps.config.INBOUND_MAX_BYTES;
  const spoolDir = options.spoolDir ?? (await mkdtemp(join(tmpdir(), 'switchboard-smtp-')));
  const receiving = { ...deps, budget: createByteBudget(options.readBudgetBytes ?? 2 * limit) };
  // The mailbox of each accepted recipient of the message in progress on a connection.
  const recipients = new WeakMap<SMTPServerSession, Map<string, RoutingMailbox>>();

  const server: SMTPServer = new Server({
    name: undefined,
    banner: 'Switchboard',
    logger: false,
    secure: false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { hideSTARTTLS: true }),
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    size: limit,
    rejectOversized: true,
    maxClients: options.maxClients ?? 100,
    maxRecipients: options.maxRecipients ?? 50,
    maxCommandLength: 4096,
    socketTimeout: 60_000,
    closeTimeout: 10_000,
    onMailFrom(_address, session, callback) {
      recipients.set(session, new Map());
      callback();
    },
    onRcptTo(address, session, callback) {
      const recipient = plainAddress(address.address);
      if (!recipient) {
        callback(reply(553, '5.1.3 Bad recipient address syntax'));
        return;
      }
      mailboxOfRecipient(deps, recipient).then(
        (mailbox) => {
          if (!mailbox) {
            callback(reply(550, '5.1.1 No such mailbox here'));
            return;
          }
          const accepted = recipients.get(session) ?? new Map<string, RoutingMailbox>();
          accepted.set(recipient, mailbox);
          recipients.set(session, accepted);
          callback();
        },
        (error: unknown) => {
          deps.log.error({ err: error, smtpSession: session.id }, 'inbound recipient could not be checked');
          callback(reply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const path = join(spoolDir, `${randomUUID()}.eml`);
      spoolMessage(stream, path, limit)
        .then(async (spooled) => {
          if (spooled.kind === 'too_large') {
            // Decided while the message is still arriving: nothing of it is kept, the rest is dropped.
            throw reply(552, `5.3.4 Message exceeds the maximum size of ${limit} bytes`);
          }
          try {
            return await receive(receiving, session, recipients.get(session) ?? new Map(), spooled);
          } finally {
            await rm(path, { force: true });
          }
        })
        .then(
          (text) => callback(null, text),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
  });
  server.on('error', (error) => deps.log.warn({ err: error }, 'SMTP receiver connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  deps.log.info({ port, host: options.host, starttls: Boolean(options.tls) }, 'SMTP receiver listening');
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.spoolDir) {
        await rm(spoolDir, { recursive: true, force: true });
      }
    },
  };
}
