import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { MessengerHandoffTable } from './messenger-handoff.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export type HandoffRow = MessengerHandoffTable;

/** The handoff, unless the conversation has one already (then nothing is written): whether it was written. */
export async function insertHandoffOnce(db: Db, row: MessengerHandoffTable): Promise<boolean> {
  const inserted = await db
    .insertInto('messenger_handoffs')
    .values(row)
    .onConflict((conflict) => conflict.column('thread_id').doNothing())
    .returning('thread_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findHandoff(db: Db, threadId: string): Promise<HandoffRow | undefined> {
  return db.selectFrom('messenger_handoffs').selectAll().where('thread_id', '=', threadId).executeTakeFirst();
}

/** The handoffs of some of a visitor's conversations (a list page), by conversation. */
export async function findHandoffsOf(db: Db, threadIds: readonly string[]): Promise<Map<string, HandoffRow>> {
  if (threadIds.length === 0) {
    return new Map();
  }
  const rows = await db.selectFrom('messenger_handoffs').selectAll().where('thread_id', 'in', threadIds).execute();
  return new Map(rows.map((row) => [row.thread_id, row]));
}

export async function updateHandoff(
  db: Db,
  threadId: string,
  changes: Updateable<Pick<MessengerHandoffTable, 'email' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('messenger_handoffs').set(changes).where('thread_id', '=', threadId).execute();
}
