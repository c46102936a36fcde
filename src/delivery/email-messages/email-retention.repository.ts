import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdateSkipLocked } from '../../db/dialect.js';

/**
 * Whether a message's original may go: it has no ticket (it was set aside), or its ticket was
 * closed, or deleted, before `cutoff`. A ticket reopened since has no `closed_at`, so its emails stay.
 */
function ofClosedTicket(cutoff: string) {
  return (eb: ExpressionBuilder<DB, 'email_messages'>) =>
    eb.or([
      eb('email_messages.ticket_id', 'is', null),
      eb.exists(
        eb
          .selectFrom('tickets')
          .select('tickets.id')
          .whereRef('tickets.id', '=', 'email_messages.ticket_id')
          .where((inner) => inner.or([inner('tickets.closed_at', '<', cutoff), inner('tickets.deleted_at', '<', cutoff)])),
      ),
    ]);
}

/**
 * Deletes the originals (`raw`) of up to `batchSize` emails older than `cutoff` whose ticket was
 * closed before it, oldest first, on `email_messages_raw_kept`; their headers and everything they
 * became stay. Rows another process is pruning are skipped (PostgreSQL), and the update checks
 * again, so two processes never prune one row twice nor a ticket reopened meanwhile.
 */
export async function pruneEmailOriginals(db: Kysely<DB>, cutoff: string, batchSize: number): Promise<number> {
  const doomed = forUpdateSkipLocked(
    db,
    db
      .selectFrom('email_messages')
      .select('email_messages.id')
      .where('email_messages.raw', 'is not', null)
      .where('email_messages.created_at', '<', cutoff)
      .where(ofClosedTicket(cutoff))
      .orderBy('email_messages.created_at')
      .orderBy('email_messages.id')
      .limit(batchSize),
  );
  const result = await db
    .updateTable('email_messages')
    .set({ raw: null })
    .where('email_messages.id', 'in', doomed)
    .where('email_messages.raw', 'is not', null)
    .where(ofClosedTicket(cutoff))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
