import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { loadOnce } from '../../lib/load-once.js';
import { findVerifiedMailboxByAddress, type RoutingMailbox } from '../../platform/mailboxes/mailbox.repository.js';
import { parseReplyAddress } from '../reply-address.js';
import { type InboundDeps, ingestMessage, MailboxUnavailableError } from './inbound.service.js';
import { type InboundMessage, parseInboundMessage, plainAddress } from './inbound-message.js';

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
  const direct = await findVerifiedMailboxByAddress(deps.db, address);
  if (direct) {
    return direct;
  }
  const token = parseReplyAddress(address);
  return token ? findVerifiedMailboxByAddress(deps.db, token.mailboxAddress) : undefined;
}

/** The bytes of the DATA stream, up to `limit`; past it the rest is read and dropped (the reply is a 552). */
function readMessage(stream: SMTPServerDataStream, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
      }
    });
    stream.once('error', reject);
    stream.once('end', () => resolve(stream.sizeExceeded || size > limit ? null : Buffer.concat(chunks, size)));
  });
}

/** Whether a message is nothing but white space (a 0-byte DATA included). */
function isBlank(raw: Buffer): boolean {
  return raw.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a);
}

/**
 * The built-in receiver, an MX for the mailboxes' addresses (no authentication, as an MX takes
 * mail from anyone): unknown recipients are refused at RCPT TO with 550, a message over
 * `ATTACHMENT_MAX_BYTES` with 552 (SIZE is advertised), and a message is answered 250 only once
 * it is committed, one organization after the other; a failure before that is a 4xx, so the
 * sender retries, and a retry of what was committed is recognised by its Message-ID.
 */
export async function startSmtpReceiver(
  deps: InboundDeps & { log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> },
  options: SmtpReceiverOptions,
): Promise<SmtpReceiver> {
  const { SMTPServer: Server } = await loadSmtpServer();
  const limit = deps.config.ATTACHMENT_MAX_BYTES;
  // The mailbox of each accepted recipient of the message in progress on a connection.
  const recipients = new WeakMap<SMTPServerSession, Map<string, RoutingMailbox>>();

  async function deliver(session: SMTPServerSession, raw: Buffer): Promise<string> {
    let message: InboundMessage;
    try {
      message = await parseInboundMessage(raw);
    } catch (error) {
      deps.log.warn({ err: error, smtpSession: session.id }, 'inbound message could not be parsed');
      throw reply(554, '5.6.0 Message could not be parsed');
    }
    const accepted = recipients.get(session) ?? new Map<string, RoutingMailbox>();
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
        if (error instanceof MailboxUnavailableError) {
          throw reply(451, '4.2.1 Mailbox temporarily unavailable, try again later');
        }
        deps.log.error({ err: error, smtpSession: session.id, mailboxId: mailbox.id }, 'inbound message could not be stored');
        throw reply(451, '4.3.0 Message could not be stored, try again later');
      }
    }
    return `Message accepted (${stored.join(', ')})`;
  }

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
      readMessage(stream, limit)
        .then((raw) => {
          if (raw === null) {
            throw reply(552, `5.3.4 Message exceeds the maximum size of ${limit} bytes`);
          }
          if (isBlank(raw)) {
            throw reply(554, '5.6.0 Empty message');
          }
          return deliver(session, raw);
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
