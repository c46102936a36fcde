import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inJsonArray } from '../../db/dialect.js';
import {
  claimLeased,
  failLapsedLeases,
  finishUnderLease,
  type LeaseColumns,
  type LeasedQueue,
  leaseLapsed,
} from '../../db/job-queue.js';
import { afterKeys } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { EmailOutboxTable, OutboxStatus } from './outbox.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const LIST_COLUMNS = [
  'id',
  'dedupe_key',
  'to_address',
  'subject',
  'status',
  'attempts',
  'last_error',
  'next_attempt_at',
  'message_id',
  'sent_at',
  'created_at',
] as const;

/**
 * What a read that left-joins `email_outbox as outbox` selects of it to show the message's delivery
 * (`deliveryOfJoinedOutbox`): a ticket's emails, a page of its comments.
 */
export const JOINED_OUTBOX_COLUMNS = [
  'outbox.id as outbox_id',
  'outbox.status as outbox_status',
  'outbox.attempts as outbox_attempts',
  'outbox.last_error as outbox_last_error',
  'outbox.sent_at as outbox_sent_at',
  'outbox.updated_at as outbox_updated_at',
] as const;

const CLAIM_COLUMNS = [
  'id',
  'organization_id',
  'to_address',
  'subject',
  'text_body',
  'html_body',
  'attempts',
  'message_id',
  'from_name',
  'from_address',
  'reply_to',
  'in_reply_to',
  'references_ids',
] as const;

/** Inserts the message unless one with its dedupe key exists; true when this call inserted it. */
export async function insertOutboxMessage(
  db: Db,
  row: Insertable<Omit<EmailOutboxTable, 'attempts' | 'locked_until' | 'last_error' | 'sent_at'>>,
): Promise<boolean> {
  const result = await db
    .insertInto('email_outbox')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findOutboxIdByDedupeKey(db: Db, dedupeKey: string): Promise<string | undefined> {
  const row = await db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', dedupeKey).executeTakeFirst();
  return row?.id;
}

/** The outbox as a leased queue: a claimed message is `sending` under a lease in `locked_until`. */
const OUTBOX_LEASE: LeaseColumns<DB, 'email_outbox'> = {
  table: 'email_outbox',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'sending' },
  attempts: 'attempts',
};

/**
 * Due: pending or failed messages whose time has come, and sends whose worker let its lease run
 * out with attempts left (`failExhaustedMessages` ends the others). Oldest due first.
 */
function outboxQueue(maxAttempts: number): LeasedQueue<DB, 'email_outbox', (typeof CLAIM_COLUMNS)[number]> {
  return {
    ...OUTBOX_LEASE,
    claimable: (eb, now) =>
      eb.or([
        eb.and([eb('status', 'in', ['pending', 'failed']), eb('next_attempt_at', '<=', now)]),
        leaseLapsed(eb, OUTBOX_LEASE, now, maxAttempts),
      ]),
    order: ['next_attempt_at', 'id'],
    returning: CLAIM_COLUMNS,
    onClaim: (now) => ({ updated_at: now }),
  };
}

/**
 * Sends whose lease ran out on their last attempt (the worker stopped, or could not record how it
 * went): undeliverable, with the reason, rather than sent again and again. Answers how many.
 */
export async function failExhaustedMessages(db: Db, claim: { now: string; maxAttempts: number }): Promise<number> {
  return failLapsedLeases(db, OUTBOX_LEASE, claim, {
    status: 'undeliverable',
    next_attempt_at: null,
    last_error:
      'The last attempt ended with no outcome recorded (the worker stopped, or the database refused the record); not tried again',
    updated_at: claim.now,
  });
}

/**
 * Claims up to `limit` due messages (`claimLeased`): they become `sending` under a lease until
 * `lockedUntil`, and the attempt is counted; concurrent workers never claim the same message.
 */
export async function claimDueMessages(
  db: Kysely<DB>,
  claim: { now: string; lockedUntil: string; limit: number; maxAttempts: number },
) {
  return claimLeased(db, outboxQueue(claim.maxAttempts), { now: claim.now, leaseUntil: claim.lockedUntil, limit: claim.limit });
}

export type ClaimedMessage = Awaited<ReturnType<typeof claimDueMessages>>[number];

/**
 * Records the outcome of a send, only while the claim is still ours (`sending` with our lease),
 * so a worker that overran its lease cannot overwrite the outcome of the one that took over.
 */
export async function finishSending(
  db: Db,
  id: string,
  lockedUntil: string,
  outcome: {
    status: Extract<OutboxStatus, 'sent' | 'failed' | 'undeliverable'>;
    at: string;
    nextAttemptAt?: string | null;
    lastError?: string | null;
    messageId?: string | null;
  },
): Promise<boolean> {
  return finishUnderLease(
    db,
    OUTBOX_LEASE,
    { id, until: lockedUntil },
    {
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt ?? null,
      updated_at: outcome.at,
      ...(outcome.status === 'sent' ? { sent_at: outcome.at, message_id: outcome.messageId ?? null } : {}),
      ...(outcome.lastError === undefined ? {} : { last_error: outcome.lastError }),
    },
  );
}

/**
 * One page of the organization's messages, of one status or all, newest first (then by id,
 * descending), and the first of the next page if any (`limit + 1` rows). The page's ids come
 * from the index alone (email_outbox_organization_created_id, or _status_created with a status),
 * however deep the page; only their rows are read.
 */
export async function listOutboxMessages(db: Db, organizationId: string, filter: { status?: OutboxStatus; page: ListPage }) {
  const { page } = filter;
  let ids = db.selectFrom('email_outbox').select(['id', 'created_at']).where('organization_id', '=', organizationId);
  if (filter.status) {
    ids = ids.where('status', '=', filter.status);
  }
  if (page.after) {
    ids = ids.where(afterKeys(['created_at', 'id'], page.after, 'desc'));
  }
  return db
    .selectFrom(
      ids
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .offset(page.offset)
        .as('page'),
    )
    .innerJoin('email_outbox', 'email_outbox.id', 'page.id')
    .select(LIST_COLUMNS.map((column) => `email_outbox.${column}` as const))
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute();
}

export type OutboxListRow = Awaited<ReturnType<typeof listOutboxMessages>>[number];

/** Statuses a message stops in without being delivered: an admin may queue it again. */
export const RETRYABLE_STATUSES = ['failed', 'undeliverable'] as const satisfies readonly OutboxStatus[];

/**
 * Queues a failed or undeliverable message of the organization again, due at once and with its
 * attempts counted from zero. One conditional UPDATE: of two concurrent retries, or a retry and a
 * worker claiming a failed message, only one changes the row; the others find no row to return.
 */
export async function requeueOutboxMessage(db: Db, organizationId: string, id: string, now: string) {
  return db
    .updateTable('email_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null, last_error: null, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', 'in', RETRYABLE_STATUSES)
    .returning(LIST_COLUMNS)
    .executeTakeFirst();
}

export async function findOutboxStatus(db: Db, organizationId: string, id: string): Promise<OutboxStatus | undefined> {
  const row = await db
    .selectFrom('email_outbox')
    .select('status')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}

/** Delivery of the messages with these dedupe keys, in the organization; keys with no message are left out. */
const deliveriesByDedupeKeysStatement = prepareQuery<
  { organizationId: string; dedupeKeys: string },
  Pick<Selectable<EmailOutboxTable>, 'id' | 'dedupe_key' | 'status' | 'attempts' | 'last_error' | 'sent_at' | 'updated_at'>
>((db: Db, param) =>
  db
    .selectFrom('email_outbox')
    .select(['id', 'dedupe_key', 'status', 'attempts', 'last_error', 'sent_at', 'updated_at'])
    .where('organization_id', '=', param('organizationId'))
    .where(inJsonArray(db, 'dedupe_key', param('dedupeKeys'))),
);

/** One compiled statement for any number of keys (a page of comments asks on every read). */
export async function findDeliveriesByDedupeKeys(db: Db, organizationId: string, dedupeKeys: string[]) {
  if (dedupeKeys.length === 0) {
    return [];
  }
  const { rows } = await deliveriesByDedupeKeysStatement.execute(db, { organizationId, dedupeKeys: JSON.stringify(dedupeKeys) });
  return rows;
}

export type DeliveryRow = Awaited<ReturnType<typeof findDeliveriesByDedupeKeys>>[number];
