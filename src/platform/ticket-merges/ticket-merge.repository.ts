import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Moves every comment of `fromTicketId` (threads and replies, deleted ones too) to `toTicketId`;
 * answers how many live ones moved. A moved comment whose dedupe key the target already uses
 * gives the key up, so the move never breaks the (ticket, dedupe key) uniqueness.
 */
export async function moveComments(db: Db, fromTicketId: string, toTicketId: string): Promise<number> {
  await db
    .updateTable('ticket_comments')
    .set({ dedupe_key: null, dedupe_fingerprint: null })
    .where('ticket_id', '=', fromTicketId)
    .where('dedupe_key', 'in', (eb) =>
      eb
        .selectFrom('ticket_comments as kept')
        .select('kept.dedupe_key')
        .where('kept.ticket_id', '=', toTicketId)
        .where('kept.dedupe_key', 'is not', null),
    )
    .execute();
  const live = await db
    .selectFrom('ticket_comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ticket_id', '=', fromTicketId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  await db.updateTable('ticket_comments').set({ ticket_id: toTicketId }).where('ticket_id', '=', fromTicketId).execute();
  return Number(live.n);
}

/** The `merged` entries of the ticket's timeline: authoritative, unlike metadata, which clients may edit. */
export async function listMergeEntries(db: Db, ticketId: string) {
  return db
    .selectFrom('ticket_activities')
    .select('new_value')
    .where('ticket_id', '=', ticketId)
    .where('field', '=', 'merged')
    .execute();
}
