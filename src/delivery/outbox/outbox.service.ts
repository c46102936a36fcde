import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, type ListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { type EmailDelivery, toEmailDelivery, toOutboxMessage } from './outbox.presenter.js';
import {
  findDeliveriesByDedupeKeys,
  findOutboxIdByDedupeKey,
  findOutboxStatus,
  insertOutboxMessage,
  listOutboxMessages,
  RETRYABLE_STATUSES,
  requeueOutboxMessage,
} from './outbox.repository.js';
import type { OutboxStatus } from './outbox.table.js';
export interface EnqueueEmail {
  organizationId: string;
  /** What the email is about, e.g. `comment:<comment id>`; unique across the installation. */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** A ticket email's headers, fixed now (`ticket-email.service.ts`); others get SMTP_FROM and an id when sent. */
  threading?: {
    /** In angle brackets. */
    messageId: string;
    /** The sender; null: SMTP_FROM. */
    from: { name: string; address: string } | null;
    /** The `Reply-To` address (shown with the sender's name); null: none. */
    replyTo: string | null;
    /** Ids in angle brackets, `references` oldest first. */
    inReplyTo: string | null;
    references: string[];
  };
}

/**
 * Queues an email in the caller's transaction, so it exists exactly when the caller's change
 * commits. A second call with the same `dedupeKey` (another request, another process) inserts
 * nothing and answers the first message's id with `created: false`.
 */
export async function enqueueEmail(
  trx: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  input: EnqueueEmail,
): Promise<{ id: string; created: boolean }> {
  const at = deps.clock.now().toISOString();
  const id = deps.ids.ulid();
  const created = await insertOutboxMessage(trx, {
    id,
    organization_id: input.organizationId,
    dedupe_key: input.dedupeKey,
    to_address: input.to,
    subject: input.subject,
    text_body: input.text,
    html_body: input.html ?? null,
    ...threadingColumns(input.threading),
    status: 'pending',
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  });
  if (created) {
    return { id, created };
  }
  const existing = await findOutboxIdByDedupeKey(trx, input.dedupeKey);
  if (!existing) {
    throw new Error(`Outbox message with dedupe key ${input.dedupeKey} neither inserted nor found`);
  }
  return { id: existing, created };
}

function threadingColumns(threading: EnqueueEmail['threading']) {
  if (!threading) {
    return {};
  }
  return {
    message_id: threading.messageId,
    from_name: threading.from?.name ?? null,
    from_address: threading.from?.address ?? null,
    reply_to: threading.replyTo,
    in_reply_to: threading.inReplyTo,
    references_ids: JSON.stringify(threading.references),
  };
}

/** An organization's queued and sent email, newest first (then by id), from where `page` starts. */
export async function listOutboxPage(db: Kysely<DB>, organizationId: string, filter: { status?: OutboxStatus; page: ListPage }) {
  const rows = await listOutboxMessages(db, organizationId, filter);
  const { items, nextCursor } = keysetPage(rows, filter.page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toOutboxMessage), nextCursor };
}

/**
 * Queues a failed or undeliverable message again, for the next worker pass, with a fresh count of
 * attempts (and so the whole backoff again). Another organization's message is a 404 like a
 * missing one; a message in any other status is a 409.
 */
export async function requeueOutbox(db: Kysely<DB>, organizationId: string, id: string, now: string) {
  const requeued = await requeueOutboxMessage(db, organizationId, id, now);
  if (requeued) {
    return toOutboxMessage(requeued);
  }
  // Only to word the error: the UPDATE above decided, and nothing is written here.
  const status = await findOutboxStatus(db, organizationId, id);
  if (!status) {
    throw AppError.notFound('Outbox message not found!');
  }
  throw AppError.conflict(`Only ${RETRYABLE_STATUSES.join(' or ')} messages can be retried; this message is ${status}`);
}

/** How the messages queued under these dedupe keys are doing, by key; a key with no message is absent. */
export async function emailDeliveriesByDedupeKey(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  dedupeKeys: string[],
): Promise<Map<string, EmailDelivery>> {
  const rows = await findDeliveriesByDedupeKeys(db, organizationId, dedupeKeys);
  return new Map(rows.map((row) => [row.dedupe_key, toEmailDelivery(row)]));
}
