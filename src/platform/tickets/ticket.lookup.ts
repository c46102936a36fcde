import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { presentTicket, presentTickets, type Ticket } from './ticket.presenter.js';
import { findTicketById, findTicketIncludingDeleted, type TicketRow } from './ticket.repository.js';

/**
 * Reads of tickets as the API answers them, for features that need no visibility check and must
 * not import the ticket service (which imports routing, which records the events that read tickets
 * back here).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** A ticket, a deleted one too, read in the caller's transaction: what an event about it carries. */
export async function presentTicketIncludingDeleted(trx: Db, organizationId: string, ticketId: string): Promise<Ticket> {
  const row = await findTicketIncludingDeleted(trx, organizationId, ticketId);
  if (!row) {
    throw new Error(`ticket ${ticketId} cannot be read back for its event`);
  }
  return presentTicket(trx, row);
}

/**
 * Live tickets of the organization by id, in the order given, without the visibility check: a
 * bulk change or a merge answers the tickets it changed, even one it moved out of the caller's sight.
 * A ticket that is gone is left out.
 */
export async function presentTicketsById(db: Db, organizationId: string, ids: readonly string[]): Promise<Ticket[]> {
  const rows: TicketRow[] = [];
  for (const id of ids) {
    const row = await findTicketById(db, organizationId, id);
    if (row) {
      rows.push(row);
    }
  }
  return presentTickets(db, rows);
}

/** A live ticket's id, team and privacy, without the visibility check: what a channel files a customer's comment on. */
export async function findLiveTicketAccess(db: Db, organizationId: string, ticketId: string) {
  const row = await findTicketById(db, organizationId, ticketId);
  return row && row.deleted_at === null ? { id: row.id, team_id: row.team_id, is_private: row.is_private } : undefined;
}
