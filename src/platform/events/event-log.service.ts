import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { EventType } from '../../shared/event-types.js';
import { type EventRow, findLastEventSeq, listEvents } from './event.repository.js';

// How the log's other readers (the webhook and ticket-agent dispatchers, a new webhook's cursor)
// read it: by number, behind a cursor of their own, in their own transaction.

type Db = Kysely<DB> | Transaction<DB>;

/** The number of the organization's newest event (0 before its first): where a new reader of the log starts. */
export async function lastEventSeq(db: Db, organizationId: string): Promise<number> {
  return findLastEventSeq(db, organizationId);
}

/**
 * Up to `limit` of the organization's events of `types` after `afterSeq`, oldest first, and the
 * number the reader's cursor moves to once it has handled them: past the batch, or to the end of
 * the log when the batch reached it (events pruned meanwhile are skipped, never waited for).
 */
export async function readEventBatch(
  trx: Db,
  organizationId: string,
  after: { types: readonly EventType[]; afterSeq: number; limit: number },
): Promise<{ events: EventRow[]; nextSeq: number }> {
  // Read before the events: every event up to it has committed, so a batch that is not full has
  // seen (or found pruned) everything up to here.
  const lastSeq = await findLastEventSeq(trx, organizationId);
  const rows = await listEvents(trx, organizationId, {
    types: after.types,
    afterSeq: after.afterSeq,
    order: 'asc',
    limit: after.limit,
  });
  const events = rows.slice(0, after.limit);
  const lastRead = events.length > 0 ? Number(events[events.length - 1]?.seq) : 0;
  return { events, nextSeq: rows.length > after.limit ? lastRead : Math.max(lastSeq, lastRead) };
}
