import { type CursorKey, decodeCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { ResolvedTicketQuery, TicketSort } from './ticket-filters.js';

/**
 * The cursors of ticket lists (`ticket-filters.ts`): the sort values of a page's last row, then the
 * fingerprint of the sort and filters, so that a cursor of one list is refused by another.
 */

/** The keys of a cursor for `sort`: the sort values of a page's last row, then the fingerprint. */
export function ticketCursorKeys(
  sort: TicketSort,
  fingerprint: string,
  row: { id: string; created_at: string; updated_at: string; status_id: string; priority_id: string; sla_sort_key?: string },
): CursorKey[] {
  if (sort.field === 'slaDueAt') {
    return [row.sla_sort_key ?? null, row.id, fingerprint];
  }
  if (sort.field === 'createdAt' || sort.field === 'updatedAt') {
    return [sort.field === 'createdAt' ? row.created_at : row.updated_at, row.id, fingerprint];
  }
  const optionId = sort.field === 'status' ? row.status_id : row.priority_id;
  const rank = sort.ranks?.find((group) => group.optionIds.includes(optionId))?.rank ?? null;
  return [rank, row.created_at, row.id, fingerprint];
}

/**
 * The sort keys of a request's cursor: one this list handed out for the same sort and filters,
 * else a 400 naming `cursor`. A cursor cannot be combined with `page`.
 */
export function readTicketCursor(
  query: { cursor?: string; page?: number },
  resolved: ResolvedTicketQuery,
): CursorKey[] | undefined {
  if (query.cursor === undefined) {
    return undefined;
  }
  if (query.page) {
    throw AppError.invalid('cursor and page cannot be combined', { location: 'query', path: ['cursor'], rule: 'exclusive' });
  }
  // A time sort's keys: the time (or the earliest SLA due time) and the id.
  const timeSort = ['createdAt', 'updatedAt', 'slaDueAt'].includes(resolved.sort.field);
  const keys = decodeCursor(query.cursor, timeSort ? 3 : 4);
  const wellFormed =
    keys !== null &&
    (timeSort || typeof keys[0] === 'number') &&
    keys.slice(timeSort ? 0 : 1, -1).every((key, index) => typeof key === 'string' && (index > 0 || isInstant(key)));
  if (!keys || !wellFormed) {
    throw AppError.invalid('cursor is not a nextCursor this list returned', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  if (keys.at(-1) !== resolved.fingerprint) {
    throw AppError.invalid('cursor was made for another sort or other filters; start again without it', {
      location: 'query',
      path: ['cursor'],
      rule: 'cursor',
    });
  }
  return keys.slice(0, -1);
}

function isInstant(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}
