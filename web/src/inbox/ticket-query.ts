import { DEFAULT_TICKET_SORT } from '../../../src/shared/ticket-sorts';
import type { TicketListQuery, TicketSort } from '../api/types';
import type { InboxSearch } from './inbox-search';

/** `GET /v1/tickets`'s parameters, custom-field filters (`cf.<fieldId>`) included, as a view may hold them. */
export type TicketQuery = Omit<TicketListQuery, 'cursor' | 'page' | 'limit'> & { [key: `cf.${string}`]: string };

/** What a view (`GET /v1/views`) holds: the filters of `GET /v1/tickets` as a JSON object, and a sort. */
export interface ViewDefinition {
  filters: object;
  sort?: TicketSort;
}

/**
 * What the list asks `GET /v1/tickets` for: the open view's filters and sort, narrowed by the
 * filter bar (a filter set in the bar replaces the view's filter of the same parameter). Null when
 * the view selects nothing by definition: a `teamId` list left empty (say, "Unassigned in my
 * teams" for someone in no team), which the ticket list would read as "any team".
 */
export function ticketQueryOf(view: ViewDefinition | undefined, search: InboxSearch): TicketQuery | null {
  const filters = { ...(view?.filters ?? {}) } as TicketQuery;
  if (Array.isArray(filters.teamId) && filters.teamId.length === 0) {
    return null;
  }
  const query: TicketQuery = { ...filters, sort: search.sort ?? view?.sort ?? DEFAULT_TICKET_SORT };
  if (search.status !== undefined) {
    delete query.statusId;
    query.statusName = search.status;
  }
  if (search.closed !== undefined) {
    query.isClosed = search.closed;
  }
  if (search.priority !== undefined) {
    delete query.priorityId;
    query.priorityName = search.priority;
  }
  if (search.assignee !== undefined) {
    query.assignedAgentId = search.assignee;
  }
  if (search.team?.length) {
    query.teamId = [...search.team];
  }
  if (search.tag?.length) {
    query.tag = [...search.tag];
  }
  return query;
}

/** A stable key for the query (TanStack Query hashes objects by sorted keys already; arrays keep their order). */
export function ticketQueryKey(query: TicketQuery | null) {
  return ['tickets', 'list', query] as const;
}
