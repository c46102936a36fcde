import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTicket } from '../tickets/ticket.service.js';
import { toTicketActivity } from './ticket-activity.presenter.js';
import { listActivities } from './ticket-activity.repository.js';
import type { ListTicketActivitiesQuery } from './ticket-activity.schemas.js';
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
