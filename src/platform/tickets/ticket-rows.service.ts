import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../lib/principal.js';
import { isOrgAdmin } from '../authorization.js';
import { findCommentByDedupeKey } from './comment.repository.js';
import { countVisibleTickets, findTicketAccess, findTicketById, type TicketRow, updateTicket } from './ticket.repository.js';
import type { TicketTable } from './ticket.table.js';

// The narrow steps other features (routing, macros, views, an agent's handoff) take on a ticket,
// in the transaction they already hold: reads without the caller's visibility check where a change
// may have moved the ticket out of the caller's sight, and the one write routing makes.

type Db = Kysely<DB> | Transaction<DB>;

/** The ticket `ticketId` of the organization, read without the viewer's visibility check, or undefined. */
export async function findTicketOfOrganization(db: Db, organizationId: string, ticketId: string): Promise<TicketRow | undefined> {
  return findTicketById(db, organizationId, ticketId);
}

/** What writing a comment on the ticket needs (who may see it, its author's card) for `viewerId`, or undefined. */
export async function findTicketAccessOfViewer(db: Db, organizationId: string, ticketId: string, viewerId: string) {
  return findTicketAccess(db, organizationId, ticketId, viewerId);
}

/** Who a ticket is assigned to, since when, and since when it waits for an agent: what routing decides. */
export type TicketAssignment = Partial<
  Pick<TicketTable, 'assigned_agent_id' | 'assigned_at' | 'awaiting_assignment_since' | 'updated_at'>
>;

/** Writes routing's decision on the ticket's assignment, in the routing transaction that holds its row. */
export async function writeTicketAssignment(
  trx: Db,
  organizationId: string,
  ticketId: string,
  assignment: TicketAssignment,
): Promise<void> {
  await updateTicket(trx, organizationId, ticketId, assignment);
}

/** How many tickets the caller sees that match `filters`, counted up to `cap + 1` (enough to say "more than cap"). */
export async function countVisibleTicketsUpTo(
  db: Db,
  principal: Principal,
  filters: Parameters<typeof countVisibleTickets>[2]['filters'],
  cap: number,
): Promise<number> {
  return countVisibleTickets(db, principal.organizationId, {
    viewerId: principal.userId,
    seeAll: isOrgAdmin(principal),
    filters,
    cap,
  });
}

/** The ticket's comment written under the deduplication key `key`, if any (a replayed request finds it). */
export async function findCommentOfDedupeKey(db: Db, ticketId: string, key: string) {
  return findCommentByDedupeKey(db, ticketId, key);
}
