import { Type } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { StringEnum } from '../../http/shared-schemas.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { TICKET_SORTS, type TicketSortName } from '../../shared/ticket-sorts.js';
import { listVisibleTickets } from '../tickets/ticket.service.js';
import {
  CUSTOM_FIELD_FILTER_PATTERN,
  resolveTicketQuery,
  TicketFilterProperties,
  type TicketFilterQuery,
} from '../tickets/ticket-filters.js';
import { countVisibleTicketsUpTo } from '../tickets/ticket-rows.service.js';

/**
 * What a saved view stores and runs, taken from the ticket list (`ticket-filters.ts`) rather than
 * copied: the same filter parameters and sorts, checked by the same code, and its tickets are
 * `GET /v1/tickets` with them. This file is the only one of views that knows how.
 */

type Db = Kysely<DB> | Transaction<DB>;

/** The filters of `GET /v1/tickets`, as a JSON object (`teamId` an array, booleans as booleans). */
export const ViewFiltersSchema = Type.Object(TicketFilterProperties, {
  additionalProperties: false,
  patternProperties: { [CUSTOM_FIELD_FILTER_PATTERN]: Type.String({ minLength: 1, maxLength: 1000 }) },
  description:
    'The filter parameters of GET /v1/tickets, combined with AND: teamId (an array), statusId, statusName, priorityId, ' +
    'priorityName, isClosed, assignedAgentId (a user id, none or me: whoever looks at the view), requestorEmail, ' +
    'customerContactId, accountId, createdAfter/Before, updatedAfter/Before, isPrivate, tag, slaDueBefore, slaDueWithin ' +
    '(minutes from whenever the view is read), slaBreached, cf.<fieldId>',
});

export type ViewFilters = TicketFilterQuery;

export const ViewSortSchema = StringEnum(TICKET_SORTS, {
  description: 'The sort of GET /v1/tickets: a field, descending with a leading -',
});

export type ViewSort = TicketSortName;

/** A view's filters checked against the caller's organization (another one's ids are a 404). */
export async function resolveViewQuery(db: Db, principal: Principal, filters: ViewFilters, sort: ViewSort, now?: Date) {
  return resolveTicketQuery(db, principal, { ...filters, sort }, { now });
}

/**
 * Checks filters sent in a request body: a value the ticket list refuses is a 400 naming
 * `filters.<parameter>` (or `sort`); an id of another organization stays a 404.
 */
export async function checkViewFilters(db: Db, principal: Principal, filters: ViewFilters, sort: ViewSort): Promise<void> {
  try {
    await resolveViewQuery(db, principal, filters, sort);
  } catch (error) {
    const issue = error instanceof AppError && error.code === 'VALIDATION' ? error.issues?.[0] : undefined;
    if (!issue) {
      throw error;
    }
    const field = String(issue.path[0] ?? '');
    const path = field === 'sort' ? issue.path : ['filters', ...issue.path];
    // The list's messages start with the parameter's name: "statusName is not …" becomes "filters.statusName is not …".
    const message = field !== 'sort' && issue.message.startsWith(field) ? `filters.${issue.message}` : issue.message;
    throw AppError.invalid(message, { location: 'body', path, rule: issue.rule });
  }
}

/**
 * How many tickets the view selects for the caller, counting no further than `cap`: the filters'
 * conditions on the visible live tickets, read from the index the planner picks for them, and at
 * most `cap + 1` index entries whatever the size of the table.
 */
export async function countViewTickets(
  db: Db,
  principal: Principal,
  filters: ViewFilters,
  sort: ViewSort,
  cap: number,
  now: Date,
): Promise<number> {
  const resolved = await resolveViewQuery(db, principal, filters, sort, now);
  return countVisibleTicketsUpTo(db, principal, resolved.filters, cap);
}

/** A page of the view's tickets: `GET /v1/tickets` with the view's filters and sort, by cursor. */
export async function pageViewTickets(
  db: Kysely<DB>,
  principal: Principal,
  filters: ViewFilters,
  sort: ViewSort,
  page: { cursor?: string; limit?: number },
  now: Date,
) {
  return listVisibleTickets(db, principal, { ...filters, sort, cursor: page.cursor, limit: page.limit }, now);
}
