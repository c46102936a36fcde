import type { Kysely, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { forUpdateSkipLocked } from '../../db/dialect.js';
import type { EventTable, EventType } from './event.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Takes the next `count` numbers of the organization's log and answers the first. The upsert locks
 * the organization's sequence row until the transaction ends (SQLite has one writer anyway), so
 * another writer of the same organization waits here and takes numbers after these: numbers commit
 * in order.
 */
const takeEventSeqsStatement = prepareQuery<{ organizationId: string; count: number }, { last_seq: number }>((db: Db, param) =>
  db
    .insertInto('event_sequences')
    .values({ organization_id: param('organizationId'), last_seq: param('count') })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({ last_seq: eb('event_sequences.last_seq', '+', param('count')) })),
    )
    .returning('last_seq'),
);

export async function takeEventSeqs(trx: Transaction<DB>, organizationId: string, count: number): Promise<number> {
  const { rows } = await takeEventSeqsStatement.execute(trx, { organizationId, count });
  const row = rows[0];
  if (!row) {
    throw new Error('the event sequence upsert returned no row');
  }
  return Number(row.last_seq) - count + 1;
}

const EVENT_COLUMNS = [
  'organization_id',
  'seq',
  'type',
  'occurred_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'data',
  'changes',
  'ticket_id',
  'team_id',
  'ticket_is_private',
  'is_internal',
  'private_to_user_id',
] as const satisfies readonly (keyof EventTable)[];

const insertEventStatement = prepareQuery<EventTable, never>((db: Db, param) =>
  db
    .insertInto('events')
    .values(Object.fromEntries(EVENT_COLUMNS.map((column) => [column, param(column)])) as unknown as EventTable),
);

/** The events of a change: one (most changes write one), by a statement compiled once. */
export async function insertEvents(trx: Transaction<DB>, rows: readonly EventTable[]): Promise<void> {
  const [only] = rows;
  if (rows.length === 1 && only) {
    await insertEventStatement.execute(trx, only);
    return;
  }
  await trx
    .insertInto('events')
    .values([...rows])
    .execute();
}

export interface EventFilter {
  types?: readonly EventType[];
  occurredAfter?: string;
  occurredBefore?: string;
  /** Keyset: events after (oldest first) or before (newest first) this number. */
  afterSeq?: number;
  order: 'asc' | 'desc';
  limit: number;
}

/** A page of the organization's events in `seq` order, on the primary key or `(organization_id, type, seq)`. */
export async function listEvents(db: Db, organizationId: string, filter: EventFilter) {
  let query = db.selectFrom('events').selectAll().where('organization_id', '=', organizationId);
  if (filter.types && filter.types.length > 0) {
    query = query.where('type', 'in', [...filter.types]);
  }
  if (filter.occurredAfter !== undefined) {
    query = query.where('occurred_at', '>', filter.occurredAfter);
  }
  if (filter.occurredBefore !== undefined) {
    query = query.where('occurred_at', '<', filter.occurredBefore);
  }
  if (filter.afterSeq !== undefined) {
    query = query.where('seq', filter.order === 'asc' ? '>' : '<', filter.afterSeq);
  }
  return query
    .orderBy('seq', filter.order)
    .limit(filter.limit + 1)
    .execute();
}

export type EventRow = Awaited<ReturnType<typeof listEvents>>[number];

/**
 * Deletes up to `batchSize` events that occurred before `cutoff`, oldest first. On PostgreSQL rows
 * another process is deleting are skipped rather than waited for, so several processes prune
 * side by side.
 */
export async function deleteEventsBefore(db: Kysely<DB>, cutoff: string, batchSize: number): Promise<number> {
  const doomed = forUpdateSkipLocked(
    db,
    db
      .selectFrom('events')
      .select(['organization_id', 'seq'])
      .where('occurred_at', '<', cutoff)
      .orderBy('occurred_at')
      .limit(batchSize),
  );
  const result = await db
    .deleteFrom('events')
    .where(({ eb, refTuple }) => eb(refTuple('organization_id', 'seq'), 'in', doomed.$asTuple('organization_id', 'seq')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The last number of every organization's log, as committed (a number is only seen once its events are). */
export async function listEventSequences(db: Db): Promise<{ organization_id: string; last_seq: number }[]> {
  const rows = await db.selectFrom('event_sequences').select(['organization_id', 'last_seq']).execute();
  return rows.map((row) => ({ organization_id: row.organization_id, last_seq: Number(row.last_seq) }));
}

/** The last number of the organization's log; 0 before its first event. */
export async function findLastEventSeq(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('event_sequences')
    .select('last_seq')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ? Number(row.last_seq) : 0;
}

/** The number of the organization's oldest event still kept, or null when none is (on the primary key). */
export async function findOldestEventSeq(db: Db, organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('seq')
    .where('organization_id', '=', organizationId)
    .orderBy('seq', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}
