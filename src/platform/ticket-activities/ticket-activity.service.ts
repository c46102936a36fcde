import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import type { Principal } from '../../http/api-key-auth.js';
import { AppError } from '../../http/errors.js';
import { readCursor } from '../../http/pagination.js';
import { keysetPage } from '../../lib/cursors.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { listActivities, type TicketActivityRow } from './ticket-activity.repository.js';
import type { ListTicketActivitiesQuery } from './ticket-activity.schemas.js';

export function toTicketActivity(row: TicketActivityRow) {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    field: row.field,
    oldValue: readJson<unknown>(row.old_value),
    newValue: readJson<unknown>(row.new_value),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    createdAt: row.created_at,
  };
}

/** A page of the ticket's timeline, newest first; the cursor holds the last entry's number. */
export async function listTicketActivities(db: Kysely<DB>, principal: Principal, id: string, query: ListTicketActivitiesQuery) {
  const ticket = await requireTicket(db, principal, id);
  const [before] = readCursor(query.cursor, 1) ?? [];
  if (before !== undefined && (typeof before !== 'number' || !Number.isInteger(before))) {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  const limit = query.limit ?? 50;
  const rows = await listActivities(db, principal.organizationId, ticket.id, { beforeSeq: before ?? undefined, limit });
  const page = keysetPage(rows, limit, (row) => [Number(row.seq)]);
  return { items: page.items.map(toTicketActivity), nextCursor: page.nextCursor };
}
