import { z } from 'zod';
import { DEFAULT_TICKET_SORT, TICKET_SORTS } from '../../../../src/shared/ticket-sorts';
import type { BodyOf, TicketView } from '../../api/types';

export type ViewBody = BodyOf<'/v1/views', 'post'>;
type ViewFilters = NonNullable<ViewBody['filters']>;

/** The status picker's values for "any open" and "any closed" (the filter `isClosed`). */
export const ANY_OPEN = ':open';
export const ANY_CLOSED = ':closed';

/**
 * The view editor's values: the filters the inbox's filter bar offers, as the ticket list takes
 * them. A status or priority is picked by name (`name:Open`, that status in every team) or kept by
 * the id it was saved with (`id:<ULID>`). Filters the editor does not show (custom fields, dates,
 * an account) are kept as saved. The form checks only that there is a name; the API judges the rest.
 */
export const viewFormSchema = z.object({
  name: z.string().refine((name) => name.trim() !== '', 'Give the view a name'),
  /** '' for a personal view. */
  teamId: z.string(),
  sort: z.enum(TICKET_SORTS),
  filters: z.object({
    status: z.string(),
    priority: z.string(),
    teamIds: z.array(z.string()),
    /** '' anyone, `me` whoever looks at the view, `none` unassigned, or a user id. */
    assignedAgentId: z.string(),
    tags: z.array(z.string()),
    requestorEmail: z.string(),
  }),
});

export type ViewFormValues = z.infer<typeof viewFormSchema>;

/** The API's paths (`filters.statusName` …) that the form shows under another name. */
export const VIEW_API_NAMES: Record<string, string> = {
  'filters.statusName': 'filters.status',
  'filters.statusId': 'filters.status',
  'filters.isClosed': 'filters.status',
  'filters.priorityName': 'filters.priority',
  'filters.priorityId': 'filters.priority',
  'filters.teamId': 'filters.teamIds',
  'filters.tag': 'filters.tags',
};

/** The filter parameters this form edits; a view's others ride along unchanged. */
const EDITED = [
  'statusName',
  'statusId',
  'isClosed',
  'priorityName',
  'priorityId',
  'teamId',
  'assignedAgentId',
  'tag',
  'requestorEmail',
] as const;

export const EMPTY_VIEW: ViewFormValues = {
  name: '',
  teamId: '',
  sort: DEFAULT_TICKET_SORT,
  filters: { status: '', priority: '', teamIds: [], assignedAgentId: '', tags: [], requestorEmail: '' },
};

function statusValue(filters: ViewFilters): string {
  if (filters.statusName !== undefined) {
    return `name:${filters.statusName}`;
  }
  if (filters.statusId !== undefined) {
    return `id:${filters.statusId}`;
  }
  return filters.isClosed === undefined ? '' : filters.isClosed ? ANY_CLOSED : ANY_OPEN;
}

function priorityValue(filters: ViewFilters): string {
  if (filters.priorityName !== undefined) {
    return `name:${filters.priorityName}`;
  }
  return filters.priorityId === undefined ? '' : `id:${filters.priorityId}`;
}

export function viewFormValues(view: TicketView): ViewFormValues {
  const filters = view.filters as ViewFilters;
  return {
    name: view.name,
    teamId: view.teamId ?? '',
    sort: view.sort,
    filters: {
      status: statusValue(filters),
      priority: priorityValue(filters),
      teamIds: filters.teamId ?? [],
      assignedAgentId: filters.assignedAgentId ?? '',
      tags: filters.tag ?? [],
      requestorEmail: filters.requestorEmail ?? '',
    },
  };
}

/** The saved filters this form does not edit (custom fields, dates, account…). */
export function otherFilters(filters: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([key]) => !(EDITED as readonly string[]).includes(key)));
}

function editedFilters(values: ViewFormValues['filters']): ViewFilters {
  const { status, priority } = values;
  const filters: ViewFilters = {};
  if (status === ANY_OPEN || status === ANY_CLOSED) {
    filters.isClosed = status === ANY_CLOSED;
  } else if (status.startsWith('name:')) {
    filters.statusName = status.slice('name:'.length);
  } else if (status.startsWith('id:')) {
    filters.statusId = status.slice('id:'.length);
  }
  if (priority.startsWith('name:')) {
    filters.priorityName = priority.slice('name:'.length);
  } else if (priority.startsWith('id:')) {
    filters.priorityId = priority.slice('id:'.length);
  }
  if (values.teamIds.length > 0) {
    filters.teamId = values.teamIds;
  }
  if (values.assignedAgentId !== '') {
    filters.assignedAgentId = values.assignedAgentId;
  }
  if (values.tags.length > 0) {
    filters.tag = values.tags;
  }
  if (values.requestorEmail.trim() !== '') {
    filters.requestorEmail = values.requestorEmail.trim();
  }
  return filters;
}

/** The body of `POST /v1/views` and `PATCH /v1/views/{id}`: the filters replaced whole, those not edited here kept. */
export function viewBody(values: ViewFormValues, kept: Record<string, unknown> = {}): ViewBody {
  return {
    name: values.name,
    teamId: values.teamId === '' ? null : values.teamId,
    sort: values.sort,
    filters: { ...kept, ...editedFilters(values.filters) } as ViewFilters,
  };
}
