import { DEFAULT_TICKET_SORT } from '../../../src/shared/ticket-sorts';
import type { PlatformEvent, Ticket } from '../api/types';
import type { TicketQuery } from './ticket-query';

/** One page of the list as `GET /v1/tickets` answers it. */
export interface TicketPage {
  items: Ticket[];
  nextCursor: string | null;
}

/** Whether a ticket belongs in the list: yes, no, or `undefined` when only the server can tell. */
export type Match = boolean | undefined;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function all(results: Match[]): Match {
  if (results.includes(false)) {
    return false;
  }
  return results.includes(undefined) ? undefined : true;
}

/**
 * The filters of `GET /v1/tickets` checked in the browser against a ticket as an event carries it.
 * Names are matched against the ticket's display names; a status or priority named by its key
 * (`in_progress`), a custom-field filter or an SLA filter cannot be told here and answers `undefined`.
 */
export function matchesQuery(ticket: Ticket, query: TicketQuery, meId: string): Match {
  if (ticket.deletedAt) {
    return false;
  }
  const results: Match[] = [];
  const check = (value: unknown, test: () => Match) => {
    if (value !== undefined) {
      results.push(test());
    }
  };
  check(query.teamId, () => query.teamId?.includes(ticket.teamId));
  check(query.isClosed, () => ticket.isClosed === query.isClosed);
  check(query.statusId, () => ticket.statusId === query.statusId);
  check(query.statusName, () => (same(ticket.status, query.statusName ?? '') ? true : undefined));
  check(query.priorityId, () => ticket.priorityId === query.priorityId);
  check(query.priorityName, () => (same(ticket.priority, query.priorityName ?? '') ? true : undefined));
  check(query.assignedAgentId, () => {
    const wanted = query.assignedAgentId === 'none' ? null : query.assignedAgentId === 'me' ? meId : query.assignedAgentId;
    return ticket.assignedAgentId === wanted;
  });
  check(query.requestorEmail, () => same(ticket.requestorEmail, query.requestorEmail ?? ''));
  check(query.customerContactId, () => ticket.customerContactId === query.customerContactId);
  check(query.accountId, () => ticket.accountId === query.accountId);
  check(query.isPrivate, () => ticket.isPrivate === query.isPrivate);
  check(query.createdAfter, () => Date.parse(ticket.createdAt) >= Date.parse(query.createdAfter ?? ''));
  check(query.createdBefore, () => Date.parse(ticket.createdAt) < Date.parse(query.createdBefore ?? ''));
  check(query.updatedAfter, () => Date.parse(ticket.updatedAt) >= Date.parse(query.updatedAfter ?? ''));
  check(query.updatedBefore, () => Date.parse(ticket.updatedAt) < Date.parse(query.updatedBefore ?? ''));
  check(query.tag, () => ticket.tags.some((tag) => query.tag?.some((wanted) => wanted === tag.id || same(wanted, tag.name))));
  // The SLA filters read the targets at the server's clock: only the server can tell.
  if (filtersOnSla(query) || Object.keys(query).some((key) => key.startsWith('cf.'))) {
    results.push(undefined);
  }
  return all(results);
}

/**
 * Where a ticket goes in a list of the sort: the index of the first loaded ticket it sorts before,
 * `'end'` after the last when the list is complete, `'unloaded'` past the loaded pages, or
 * `undefined` for the sorts the browser cannot order (priority and status follow each team's options).
 */
export function insertionIndex(items: readonly Ticket[], ticket: Ticket, sort: TicketQuery['sort'], complete: boolean) {
  const field = (sort ?? DEFAULT_TICKET_SORT).replace('-', '');
  if (field !== 'createdAt' && field !== 'updatedAt') {
    return undefined;
  }
  const descending = (sort ?? DEFAULT_TICKET_SORT).startsWith('-');
  // Ties break on the id, in the sort's direction, as the API's keyset does.
  const key = (item: Ticket) => `${new Date(item[field]).toISOString()}|${item.id}`;
  const own = key(ticket);
  const index = items.findIndex((item) => (descending ? own > key(item) : own < key(item)));
  if (index >= 0) {
    return index;
  }
  return complete ? items.length : 'unloaded';
}

export interface MergeResult {
  pages: TicketPage[];
  /** The event could not be placed in the browser: reload the list's first page. */
  refetch: boolean;
}

const TICKET_EVENTS = new Set(['ticket.created', 'ticket.updated', 'ticket.assigned', 'ticket.status_changed']);

/**
 * A live event applied to the loaded pages of a list: a changed ticket is updated where it is (or
 * leaves the list when it no longer matches), a deleted one leaves, and a new or newly matching
 * one is inserted where the sort puts it. What the browser cannot decide asks for a refetch.
 */
export function mergeTicketEvent(
  pages: readonly TicketPage[],
  event: PlatformEvent,
  query: TicketQuery,
  meId: string,
): MergeResult {
  const unchanged = { pages: pages as TicketPage[], refetch: false };
  if (event.type !== 'ticket.deleted' && !TICKET_EVENTS.has(event.type)) {
    return unchanged;
  }
  const ticket = event.data as Ticket;
  if (!ticket || typeof ticket.id !== 'string') {
    return unchanged;
  }
  const present = pages.some((page) => page.items.some((item) => item.id === ticket.id));
  const match = event.type === 'ticket.deleted' ? false : matchesQuery(ticket, query, meId);
  if (present) {
    return {
      pages: pages.map((page) => ({
        ...page,
        items:
          match === false
            ? page.items.filter((item) => item.id !== ticket.id)
            : page.items.map((item) => (item.id === ticket.id ? ticket : item)),
      })),
      refetch: false,
    };
  }
  if (match === false) {
    return unchanged;
  }
  if (match === undefined) {
    return { ...unchanged, refetch: true };
  }
  return insertTicket(pages, ticket, query.sort);
}

function insertTicket(pages: readonly TicketPage[], ticket: Ticket, sort: TicketQuery['sort']): MergeResult {
  for (const [pageIndex, page] of pages.entries()) {
    const isLast = pageIndex === pages.length - 1;
    const at = insertionIndex(page.items, ticket, sort, isLast && page.nextCursor === null);
    if (at === undefined) {
      return { pages: pages as TicketPage[], refetch: true };
    }
    if (at !== 'unloaded') {
      const items = [...page.items.slice(0, at), ticket, ...page.items.slice(at)];
      return { pages: pages.map((other, index) => (index === pageIndex ? { ...page, items } : other)), refetch: false };
    }
  }
  // Sorts after everything loaded: the next page brings it when the list scrolls there.
  return { pages: pages as TicketPage[], refetch: false };
}

/** Whether the list filters on SLA state, which only the server can tell (`matchesQuery` answers `undefined`). */
function filtersOnSla(query: TicketQuery): boolean {
  return [query.slaDueBefore, query.slaDueWithin, query.slaBreached].some((value) => value !== undefined);
}

/**
 * The ticket an SLA warning or breach changed, when the list must show it anew: the event carries
 * only its id, so the caller reads the ticket and merges it as a change. A ticket the list shows
 * (its Due column, and whether it still belongs), or any ticket when the list filters on SLA state
 * (it may belong now); else none, for events of tickets this list has nothing to do with.
 */
export function ticketOfSlaEvent(pages: readonly TicketPage[], event: PlatformEvent, query: TicketQuery): string | undefined {
  if (event.type !== 'sla.warning' && event.type !== 'sla.breached') {
    return undefined;
  }
  const ticketId = (event.data as { ticketId?: unknown } | null)?.ticketId;
  if (typeof ticketId !== 'string') {
    return undefined;
  }
  const shown = pages.some((page) => page.items.some((item) => item.id === ticketId));
  return shown || filtersOnSla(query) ? ticketId : undefined;
}
