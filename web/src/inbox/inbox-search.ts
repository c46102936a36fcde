import { TICKET_SORTS } from '../../../src/shared/ticket-sorts';
import type { TicketSort } from '../api/types';

/**
 * The inbox's place in the URL: the open view (absent: the first built-in one) and the filter
 * bar, which narrows the view (a filter set here replaces the view's own filter of that name).
 * Each key stands for a parameter of `GET /v1/tickets`: status → statusName, closed → isClosed,
 * priority → priorityName, assignee → assignedAgentId (a user id, `me` or `none`), team → teamId,
 * tag → tag, sort → sort.
 */
export interface InboxSearch {
  view?: string;
  status?: string;
  closed?: boolean;
  priority?: string;
  assignee?: string;
  team?: string[];
  tag?: string[];
  sort?: TicketSort;
}

export type InboxFilterKey = Exclude<keyof InboxSearch, 'view'>;

// The router reads `?status=123` as a number and `?closed=true` as a boolean (it JSON-parses
// values), and a hand-written URL may carry anything: take what makes sense, drop the rest.
function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return String(value);
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 100 ? trimmed : undefined;
}

function texts(value: unknown): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).map(text).filter((item): item is string => item !== undefined);
  const unique = [...new Set(list)].slice(0, 20);
  return unique.length > 0 ? unique : undefined;
}

function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') {
    return true;
  }
  if (value === false || value === 'false') {
    return false;
  }
  return undefined;
}

function sortOf(value: unknown): TicketSort | undefined {
  return TICKET_SORTS.find((sort) => sort === value);
}

/** Drops the keys without a value, so the URL holds only what is set. */
function compact(search: InboxSearch): InboxSearch {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      result[key] = value;
    }
  }
  return result as InboxSearch;
}

export function parseInboxSearch(search: Record<string, unknown>): InboxSearch {
  return compact({
    view: text(search.view),
    status: text(search.status),
    closed: flag(search.closed),
    priority: text(search.priority),
    assignee: text(search.assignee),
    team: texts(search.team),
    tag: texts(search.tag),
    sort: sortOf(search.sort),
  });
}

/** The search with one filter set (or cleared with `undefined`/`[]`), the view kept. */
export function withFilter<K extends InboxFilterKey>(
  search: InboxSearch,
  key: K,
  value: InboxSearch[K] | undefined,
): InboxSearch {
  return compact({ ...search, [key]: value });
}

/** The search with every filter cleared: just the view. */
export function withoutFilters(search: InboxSearch): InboxSearch {
  return compact({ view: search.view });
}

/** How many filters the bar holds (the sort is not one). */
export function filterCount(search: InboxSearch): number {
  const { view: _view, sort: _sort, ...filters } = compact(search);
  return Object.keys(filters).length;
}
