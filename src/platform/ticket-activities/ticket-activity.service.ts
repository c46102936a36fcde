import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { listActivities, type TicketActivityRow } from './ticket-activity.repository.js';
import type { ListTicketActivitiesQuery } from './ticket-activity.schemas.js';

/** Routing and the system by the name stored with the entry; people by their current name. */
function actorName(row: TicketActivityRow): string | null {
  if (row.actor_name !== null) {
    return row.actor_name;
  }
  if (row.actor_type === 'customer_contact') {
    const name = [row.contact_first_name, row.contact_last_name].filter(Boolean).join(' ');
    return name || row.contact_email;
  }
  return row.user_name;
}

export function toTicketActivity(row: TicketActivityRow) {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    field: row.field,
    oldValue: readJson<unknown>(row.old_value),
    newValue: readJson<unknown>(row.new_value),
    actor: { type: row.actor_type, id: row.actor_id, name: actorName(row) },
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
