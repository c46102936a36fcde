import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { listSlaEvents } from './ticket-sla.repository.js';
import type { ListTicketSlaEventsQuery } from './ticket-sla.schemas.js';

/** A page of the ticket's SLA clock, oldest first; the cursor holds the last event's id. */
export async function listTicketSlaEvents(db: Kysely<DB>, principal: Principal, id: string, query: ListTicketSlaEventsQuery) {
  const ticket = await requireTicket(db, principal, id);
  const [after] = readCursor(query.cursor, 1) ?? [];
  if (after !== undefined && typeof after !== 'string') {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  const limit = query.limit ?? 50;
  const rows = await listSlaEvents(db, ticket.id, after ?? null, limit + 1);
  const page = keysetPage(rows, limit, (row) => [row.id]);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      kind: row.kind,
      metric: row.metric,
      policyId: row.policy_id,
      reason: row.reason,
      dueAt: row.due_at,
      actorType: row.actor_type as 'user' | 'customer_contact' | 'system' | 'routing',
      actorId: row.actor_id,
      at: row.created_at,
    })),
    nextCursor: page.nextCursor,
  };
}
