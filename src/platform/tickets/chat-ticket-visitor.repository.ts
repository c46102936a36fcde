import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ChatTicketVisitorTable } from './chat-ticket-visitor.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const CHANGED = ['ticket_id', 'organization_id', 'last_seen_at'] as const;
/** The sweep takes at most this many gone visitors at a time. */
const SWEEP_BATCH = 500;

export async function insertChatTicketVisitor(db: Db, row: ChatTicketVisitorTable): Promise<void> {
  await db.insertInto('chat_ticket_visitors').values(row).execute();
}

export function findChatTicketVisitor(db: Db, ticketId: string) {
  return db.selectFrom('chat_ticket_visitors').selectAll().where('ticket_id', '=', ticketId).executeTakeFirst();
}

export async function markVisitorsSeen(db: Db, ticketIds: readonly string[], at: string): Promise<void> {
  await db.updateTable('chat_ticket_visitors').set({ last_seen_at: at }).where('ticket_id', 'in', ticketIds).execute();
}

/** Those of the tickets whose visitor was away, now online: only the update that changed a row answers it. */
export function markVisitorsOnline(db: Db, ticketIds: readonly string[]) {
  return db
    .updateTable('chat_ticket_visitors')
    .set({ online: true })
    .where('ticket_id', 'in', ticketIds)
    .where('online', '=', false)
    .returning(CHANGED)
    .execute();
}

/** The visitor typing at `at`, unless a report after `notSince` was taken already (then nothing is answered). */
export function markTyping(db: Db, ticketId: string, at: string, notSince: string) {
  return db
    .updateTable('chat_ticket_visitors')
    .set({ typing_at: at, last_seen_at: at, online: true })
    .where('ticket_id', '=', ticketId)
    .where((eb) => eb.or([eb('typing_at', 'is', null), eb('typing_at', '<', notSince)]))
    .returning(CHANGED)
    .execute();
}

/** Online visitors last seen before `before`, now away: each answered by the one update that changed it. */
export function takeGoneVisitors(db: Db, before: string) {
  return db
    .updateTable('chat_ticket_visitors')
    .set({ online: false, typing_at: null })
    .where('ticket_id', 'in', (eb) =>
      eb
        .selectFrom('chat_ticket_visitors')
        .select('ticket_id')
        .where('online', '=', true)
        .where('last_seen_at', '<', before)
        .limit(SWEEP_BATCH),
    )
    .where('online', '=', true)
    .where('last_seen_at', '<', before)
    .returning(CHANGED)
    .execute();
}

/** The tickets an event about their visitor is recorded on (live ones). */
export async function ticketsForEvents(db: Db, ticketIds: readonly string[]) {
  const rows = await db
    .selectFrom('tickets')
    .select(['id', 'team_id', 'is_private'])
    .where('id', 'in', ticketIds)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
