import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type Config, dkimSigningOf } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { backoffMs, leaseUntil } from '../../db/job-queue.js';
import type { Clock } from '../../lib/clock.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { storableText } from '../../lib/storable-text.js';
import { markTicketEmailSent } from '../outbound/outbound-email.service.js';
import { type ClaimedMessage, claimDueMessages, failExhaustedMessages, finishSending } from './outbox.repository.js';
import {
  createSmtpTransport,
  isPermanentFailure,
  type MailTransport,
  messageIdFor,
  type OutgoingMail,
  type SentMail,
} from './smtp.js';

export interface OutboxWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM' | 'OUTBOX_POLL_MS' | 'DKIM_DOMAIN' | 'DKIM_SELECTOR' | 'DKIM_PRIVATE_KEY'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface OutboxWorkerOptions {
  /** Most messages one pass sends; each is claimed on its own, under a fresh lease. */
  batchSize?: number;
  /** How long a claim holds before another worker may take the message over. */
  leaseMs?: number;
  /**
   * After this many failed attempts a message is `undeliverable`; so is one whose last attempt
   * ended with nothing recorded (the worker stopped).
   */
  maxAttempts?: number;
  /** Wait after the first failure; doubles with each further one, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Replaces SMTP (for tests of the worker's own rules); default: nodemailer over `SMTP_URL`. */
  transport?: MailTransport;
}

export interface OutboxWorker {
  /** Polls every `OUTBOX_POLL_MS` (at once again after a full batch) until `stop()`. */
  start(): void;
  /** Stops polling, waits for a pass in progress and closes the transport. */
  stop(): Promise<void>;
  /** One pass: claims and sends due messages; resolves to how many it claimed. */
  runOnce(): Promise<number>;
}

export const NO_SMTP_URL = 'SMTP_URL is not configured';
const MAX_ERROR_LENGTH = 1000;

/** What is stored when the database refused to record `what`: the reason, storable. */
function unrecorded(what: string, error: unknown): string {
  const reason = storableText(error instanceof Error ? error.message : String(error));
  return `The ${what} could not be recorded (${reason})`.slice(0, MAX_ERROR_LENGTH);
}

/**
 * The message a claimed row describes: a ticket email with the sender, reply address and threading
 * fixed when it was queued; any other from `SMTP_FROM`, with an id made of the outbox id.
 */
function outgoingMail(message: ClaimedMessage, smtpFrom: string, date: Date): OutgoingMail {
  const from = message.from_address ? { name: message.from_name ?? '', address: message.from_address } : smtpFrom;
  const references = readJson<string[]>(message.references_ids) ?? [];
  return {
    from,
    to: message.to_address,
    subject: message.subject,
    text: message.text_body,
    html: message.html_body ?? undefined,
    messageId: message.message_id ?? messageIdFor(message.id, smtpFrom),
    date,
    ...(message.reply_to ? { replyTo: { name: message.from_name ?? '', address: message.reply_to } } : {}),
    ...(message.in_reply_to ? { inReplyTo: message.in_reply_to } : {}),
    ...(references.length > 0 ? { references } : {}),
  };
}

/**
 * The background sender of `email_outbox`. Safe with any number of workers and processes:
 * every message is claimed from the leased job queue (`db/job-queue.ts`, see `claimDueMessages`),
 * and each outcome is written only while the claim is still the worker's own. Every stored time comes
 * from `deps.clock`.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps, options: OutboxWorkerOptions = {}): OutboxWorker {
  const { db, clock, config, log } = deps;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 8;
  let transport: MailTransport | undefined = options.transport;

  const smtp = (): MailTransport | undefined => {
    if (!transport && config.SMTP_URL) {
      transport = createSmtpTransport(config.SMTP_URL, { dkim: dkimSigningOf(config) });
    }
    return transport;
  };

  async function deliver(message: ClaimedMessage, lockedUntil: string): Promise<void> {
    const mailer = smtp();
    const mail = outgoingMail(message, config.SMTP_FROM, clock.now());
    let failure: unknown;
    let sent: SentMail | undefined;
    try {
      if (!mailer) {
        throw new Error(NO_SMTP_URL);
      }
      sent = await mailer.send(mail);
    } catch (error) {
      failure = error;
    }
    const at = clock.now().toISOString();
    if (failure === undefined) {
      await recordSent(message, lockedUntil, { at, messageId: mail.messageId, raw: sent?.raw ?? null });
      return;
    }
    // The server's reply is in the message: text from outside, made storable.
    const lastError = storableText(failure instanceof Error ? failure.message : String(failure)).slice(0, MAX_ERROR_LENGTH);
    const giveUp = !mailer || isPermanentFailure(failure) || message.attempts >= maxAttempts;
    const nextAttemptAt = giveUp
      ? null
      : new Date(Date.parse(at) + backoffMs(message.attempts, options.baseDelayMs, options.maxDelayMs)).toISOString();
    const outcome = { status: giveUp ? ('undeliverable' as const) : ('failed' as const), at, nextAttemptAt, lastError };
    try {
      await finishSending(db, message.id, lockedUntil, outcome);
    } catch (error) {
      // Still a failed attempt, counted as such, with why its own error could not be kept.
      await finishSending(db, message.id, lockedUntil, { ...outcome, lastError: unrecorded('failure', error) });
    }
    log.warn({ outboxId: message.id, attempts: message.attempts, giveUp, err: failure }, 'email not delivered');
  }

  /** Records a message the server accepted; should the copy of what was sent not be stored, it is still marked sent, never sent twice. */
  async function recordSent(
    message: ClaimedMessage,
    lockedUntil: string,
    sent: { at: string; messageId: string; raw: Buffer | null },
  ) {
    const outcome = { status: 'sent' as const, at: sent.at, messageId: sent.messageId };
    try {
      await db.transaction().execute(async (trx) => {
        if (await finishSending(trx, message.id, lockedUntil, outcome)) {
          await markTicketEmailSent(trx, message.id, sent.raw);
        }
      });
    } catch (error) {
      log.error({ err: error, outboxId: message.id }, 'sent email not recorded with its copy');
      await finishSending(db, message.id, lockedUntil, { ...outcome, lastError: unrecorded('copy of the sent message', error) });
    }
  }

  async function runOnce(): Promise<number> {
    let claimed = 0;
    await failExhaustedMessages(db, { now: clock.now().toISOString(), maxAttempts });
    while (claimed < batchSize) {
      const now = clock.now();
      const lockedUntil = leaseUntil(now, leaseMs);
      const [message] = await claimDueMessages(db, { now: now.toISOString(), lockedUntil, limit: 1, maxAttempts });
      if (!message) {
        break;
      }
      claimed++;
      await deliver(message, lockedUntil);
    }
    return claimed;
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: config.OUTBOX_POLL_MS,
    batchSize,
    onError: (error) => log.error({ err: error }, 'email outbox pass failed'),
  });

  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      if (transport && transport !== options.transport) {
        transport.close();
      }
      transport = options.transport;
    },
    runOnce,
  };
}
