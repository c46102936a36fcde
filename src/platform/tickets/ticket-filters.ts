import { createHash } from 'node:crypto';
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { CursorSchema } from '../../http/pagination.js';
import { PageNumberSchema, UlidSchema } from '../../http/shared-schemas.js';
import { AppError } from '../../lib/errors.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { DEFAULT_TICKET_SORT, TICKET_SORTS, type TicketSortName } from '../../shared/ticket-sorts.js';
import { accountExists } from '../accounts/account.lookup.js';
import { contactExists } from '../contacts/customer-contact.service.js';
import { requireTeam } from '../teams/team.lookup.js';
import { findOrganizationUserId } from '../users/user.lookup.js';
import { customFieldFilters } from './ticket-custom-field-filters.js';

/**
 * The filters and sorts of ticket lists, in one place so that every list of tickets (`GET
 * /v1/tickets`, search, saved views) takes the same parameters, checks them alike and turns them
 * into the same SQL:
 * - the query-string schema (`TicketFilterProperties`, `TicketSortProperties`, custom-field keys
 *   `cf.<fieldId>` as `CUSTOM_FIELD_FILTER_PATTERN`);
 * - `resolveTicketQuery`: checks the values against the organization (404 for another one's ids,
 *   400 naming the field for unknown names) and answers `TicketFilters`, a `TicketSort` and the
 *   fingerprint a cursor carries, so a cursor of one filter set is refused by another;
 * - `applyTicketFilters(query, filters)`: the conditions, on any query over `tickets`, and
 *   `ticketPageIds`: one page of ids in the sort's order, by keyset (or offset for `page`), both
 *   in `ticket-list-queries.ts`; the cursors they read and write in `ticket-cursors.ts`;
 * - the `cf.<fieldId>` filters and the index table of custom-field values they read, kept in step
 *   by `writeTicketCustomFieldValues`, in `ticket-custom-field-filters.ts`.
 */

type Db = Kysely<DB> | Transaction<DB>;

const ULID_BODY = ULID_PATTERN.slice(1, -1);
const ULID = new RegExp(ULID_PATTERN);
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** Query-string keys of a custom-field filter: `cf.<fieldId>=value`. */
export const CUSTOM_FIELD_FILTER_PATTERN = `^cf\\.${ULID_BODY}$`;

/** The filter parameters of ticket lists. Every one combines with the others (AND). */
export const TicketFilterProperties = {
  teamId: Type.Optional(
    Type.Array(UlidSchema, { maxItems: 50, description: 'Tickets of these teams (repeat the parameter for several)' }),
  ),
  statusId: Type.Optional(UlidSchema),
  statusName: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "A status's key or display name, any case (`open`, `In progress`): that status in every team",
    }),
  ),
  priorityId: Type.Optional(UlidSchema),
  priorityName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: "A priority's key or display name, any case" }),
  ),
  isClosed: Type.Optional(Type.Boolean({ description: 'Only tickets in a closed status (true) or in an open one (false)' })),
  assignedAgentId: Type.Optional(
    Type.String({
      pattern: `^(${ULID_BODY}|none|me)$`,
      description: 'A user id, `none` for unassigned tickets, or `me` for the caller',
    }),
  ),
  requestorEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Any case' })),
  customerContactId: Type.Optional(UlidSchema),
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  createdAfter: Type.Optional(DateTime('Created at or after this instant (ISO 8601 with a time zone)')),
  createdBefore: Type.Optional(DateTime('Created before this instant')),
  updatedAfter: Type.Optional(DateTime('Last changed at or after this instant')),
  updatedBefore: Type.Optional(DateTime('Last changed before this instant')),
  isPrivate: Type.Optional(Type.Boolean()),
  tag: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 20,
      description:
        'A ticket tag id, or a ticket tag name in any case (that name in every team); repeat for tickets with any of them',
    }),
  ),
  slaDueBefore: Type.Optional(
    DateTime('Tickets with a running SLA target due before this instant (running targets already past due included)'),
  ),
  slaDueWithin: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 525_600,
      description:
        "Tickets with a running SLA target due within this many minutes of the request's time (past due included): " +
        'the relative form of slaDueBefore, for saved views',
    }),
  ),
  slaBreached: Type.Optional(
    Type.Boolean({
      description:
        "true: tickets with a breached SLA target (marked breached, or running and past due at the request's time); " +
        'false: tickets with none',
    }),
  ),
};

export const TicketSortProperties = {
  sort: Type.Optional(
    Type.Union(
      TICKET_SORTS.map((name) => Type.Literal(name)),
      {
        default: DEFAULT_TICKET_SORT,
        description:
          'Order of the list: a field, descending with a leading `-` (default `-createdAt`, newest first). ' +
          "`priority` and `status` follow the order of the team's options (low to urgent, open to closed), then the creation time. " +
          "`slaDueAt`: the ticket's earliest running SLA target first, tickets without one last",
      },
    ),
  ),
};

/** What a list of tickets takes besides its filters: the contract's 0-based `page`, or a `cursor`. */
export const TicketPageProperties = {
  page: Type.Optional(PageNumberSchema()),
  cursor: Type.Optional(CursorSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
};

/**
 * The query-string schema of a ticket list: the filters, the sort, the page, `extra` (say, a
 * search's `q`), and `cf.<fieldId>` keys. Anything else is a 400 naming it.
 */
export function ticketListQuerySchema<P extends TProperties>(extra: P = {} as P) {
  return Type.Object(
    { ...TicketFilterProperties, ...TicketSortProperties, ...TicketPageProperties, ...extra },
    {
      additionalProperties: false,
      patternProperties: {
        [CUSTOM_FIELD_FILTER_PATTERN]: Type.String({ minLength: 1, maxLength: 1000 }),
      },
    },
  );
}

const FilterAndSortSchema = Type.Object({ ...TicketFilterProperties, ...TicketSortProperties });
/** The filters and sort as sent; `cf.<fieldId>` keys ride along as extra string properties. */
export type TicketFilterQuery = Static<typeof FilterAndSortSchema> & { [key: `cf.${string}`]: unknown };

/** Filters checked against the organization and ready for SQL. */
export interface TicketFilters {
  organizationId: string;
  teamIds?: string[];
  /** The allowed statuses (from statusId, statusName and isClosed together); empty: no ticket. */
  statusIds?: string[];
  priorityIds?: string[];
  /** null: unassigned tickets. */
  assignedAgentId?: string | null;
  /** Lower case. */
  requestorEmail?: string;
  customerContactId?: string;
  accountId?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  isPrivate?: boolean;
  customFields?: { fieldId: string; valueKey: string }[];
  /** Tickets with any of these tags. */
  tagIds?: string[];
  /** Tickets with a running SLA target due before this instant (from slaDueBefore and slaDueWithin). */
  slaDueBefore?: string;
  /** Tickets with (true) or without (false) a breached SLA target at `slaNow`. */
  slaBreached?: boolean;
  /** The request's time, which `slaBreached` reads running targets at (not part of a cursor's fingerprint). */
  slaNow?: string;
}

export type TicketSortField = 'createdAt' | 'updatedAt' | 'priority' | 'status' | 'slaDueAt';

export interface TicketSort {
  name: TicketSortName;
  field: TicketSortField;
  direction: 'asc' | 'desc';
  /**
   * For `priority` and `status`: the options, grouped by their place in their team's list (teams
   * have their own options; the first of each team sorts together), in the sort's direction.
   */
  ranks?: { rank: number; optionIds: string[] }[];
}

export interface ResolvedTicketQuery {
  filters: TicketFilters;
  sort: TicketSort;
  /** Carried by cursors: a cursor of another sort or filter set is refused. */
  fingerprint: string;
}

const invalid = (field: string, message: string, rule = 'reference') =>
  AppError.invalid(`${field} ${message}`, { location: 'query', path: [field], rule });

/**
 * Checks a list's filters and sort against the caller's organization. Another organization's team,
 * user, contact, account, status, priority or custom field is a 404, as a missing one; an unknown
 * status or priority name, or a value a custom field cannot hold, is a 400 naming the parameter.
 * With `teamsCheckedByCaller`, the teams are the caller's to check (`requireTeams`). `now` is the
 * request's time, which the SLA filters read (`slaDueWithin`, `slaBreached`).
 */
export async function resolveTicketQuery(
  db: Db,
  principal: Principal,
  query: TicketFilterQuery,
  checks: { teamsCheckedByCaller?: boolean; now?: Date } = {},
): Promise<ResolvedTicketQuery> {
  const organizationId = principal.organizationId;
  const filters: TicketFilters = { organizationId };
  const teamIds = query.teamId?.length ? [...new Set(query.teamId)].sort() : undefined;
  if (!checks.teamsCheckedByCaller) {
    await requireTeams(db, organizationId, teamIds);
  }
  filters.teamIds = teamIds;
  // Statuses and priorities are read only when a filter or the sort names them: the plain list
  // stays one statement. A name matches in every team (the team filter, if any, applies to the
  // tickets), so the options are the organization's.
  const needsOptions =
    [query.statusId, query.statusName, query.isClosed, query.priorityId, query.priorityName].some(
      (value) => value !== undefined,
    ) || /status|priority/.test(query.sort ?? '');
  const options = needsOptions ? await organizationOptions(db, organizationId) : { status: [], priority: [] };
  filters.statusIds = pickOptions(options.status, query, 'statusId', 'statusName', 'Status not found!');
  if (query.isClosed !== undefined) {
    const closed = options.status.filter((option) => option.is_closed === query.isClosed).map((option) => option.id);
    filters.statusIds = filters.statusIds ? filters.statusIds.filter((id) => closed.includes(id)) : closed;
  }
  filters.priorityIds = pickOptions(options.priority, query, 'priorityId', 'priorityName', 'Priority not found!');
  if (query.assignedAgentId === 'none') {
    filters.assignedAgentId = null;
  } else if (query.assignedAgentId === 'me') {
    filters.assignedAgentId = principal.userId;
  } else if (query.assignedAgentId) {
    if (!(await findOrganizationUserId(db, organizationId, { id: query.assignedAgentId }))) {
      throw AppError.notFound('User not found!');
    }
    filters.assignedAgentId = query.assignedAgentId;
  }
  filters.requestorEmail = query.requestorEmail?.trim().toLowerCase();
  if (query.customerContactId) {
    if (!(await contactExists(db, organizationId, query.customerContactId))) {
      throw AppError.notFound('Customer contact not found!');
    }
    filters.customerContactId = query.customerContactId;
  }
  if (query.accountId) {
    if (!(await accountExists(db, organizationId, query.accountId))) {
      throw AppError.notFound('Account not found!');
    }
    filters.accountId = query.accountId;
  }
  for (const key of ['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const) {
    if (query[key] !== undefined) {
      filters[key] = instant(key, query[key]);
    }
  }
  filters.isPrivate = query.isPrivate;
  filters.customFields = await customFieldFilters(db, organizationId, query);
  filters.tagIds = query.tag?.length ? await tagFilter(db, organizationId, query.tag) : undefined;
  const sla = slaFilters(query, checks.now ?? new Date());
  Object.assign(filters, sla.filters);
  const sort = resolveSort(query.sort ?? DEFAULT_TICKET_SORT, options, filters);
  return { filters, sort, fingerprint: fingerprintOf(sort.name, { ...filters, ...sla.fingerprinted }) };
}

/**
 * The SLA filters at `now`: `slaDueBefore` and `slaDueWithin` (the earlier of the two instants),
 * `slaBreached`. A cursor's fingerprint carries them as sent, not the instants they make at each
 * request: the pages of `slaDueWithin=60` belong to one list, read at each page's time.
 */
function slaFilters(query: TicketFilterQuery, now: Date) {
  const filters: Pick<TicketFilters, 'slaDueBefore' | 'slaBreached' | 'slaNow'> = {};
  const before = query.slaDueBefore === undefined ? undefined : instant('slaDueBefore', query.slaDueBefore);
  const within =
    query.slaDueWithin === undefined ? undefined : new Date(now.getTime() + query.slaDueWithin * 60_000).toISOString();
  const instants = [before, within].filter((value) => value !== undefined).sort();
  filters.slaDueBefore = instants[0];
  if (query.slaBreached !== undefined) {
    filters.slaBreached = query.slaBreached;
    filters.slaNow = now.toISOString();
  }
  const fingerprinted = {
    slaDueBefore: before,
    slaDueWithin: query.slaDueWithin,
    slaNow: undefined,
  };
  return { filters, fingerprinted };
}

/**
 * The 404 of a team filter naming a team that is not an active one of the organization. With
 * `teamsCheckedByCaller`, `resolveTicketQuery` leaves this to its caller, which can make it only
 * when a page comes back empty (see `listVisibleTickets`).
 */
export async function requireTeams(db: Db, organizationId: string, teamIds: readonly string[] | undefined): Promise<void> {
  for (const teamId of teamIds ?? []) {
    await requireTeam(db, organizationId, teamId);
  }
}

function instant(field: string, value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw invalid(field, 'must be a date and time (ISO 8601)', 'format');
  }
  return date.toISOString();
}

interface OptionRow {
  id: string;
  kind: string;
  name: string;
  display_name: string;
  position: number;
  is_closed: boolean;
}

/** The statuses and priorities of every team of the organization (index ticket_options_organization_kind). */
async function organizationOptions(db: Db, organizationId: string) {
  const query = db
    .selectFrom('ticket_options')
    .select(['id', 'kind', 'name', 'display_name', 'position', 'is_closed'])
    .where('organization_id', '=', organizationId)
    .where('kind', 'in', ['status', 'priority']);
  const rows = (await query.orderBy('position').orderBy('id').execute()).map(
    (row): OptionRow => ({ ...row, position: Number(row.position), is_closed: readBoolean(row.is_closed) }),
  );
  return { status: rows.filter((row) => row.kind === 'status'), priority: rows.filter((row) => row.kind === 'priority') };
}

/** The options an id and/or a name allow (both: the options matching both); undefined: no filter. */
function pickOptions(
  options: OptionRow[],
  query: TicketFilterQuery,
  idField: 'statusId' | 'priorityId',
  nameField: 'statusName' | 'priorityName',
  notFound: string,
): string[] | undefined {
  const id = query[idField];
  const name = query[nameField]?.trim().toLowerCase();
  if (id === undefined && name === undefined) {
    return undefined;
  }
  let picked = options;
  if (id !== undefined) {
    picked = picked.filter((option) => option.id === id);
    if (picked.length === 0) {
      throw AppError.notFound(notFound);
    }
  }
  if (name !== undefined) {
    const named = options.filter((option) => option.name.toLowerCase() === name || option.display_name.toLowerCase() === name);
    if (named.length === 0) {
      throw invalid(nameField, `is not a ${idField === 'statusId' ? 'status' : 'priority'} of any team: ${name}`);
    }
    picked = picked.filter((option) => named.includes(option));
  }
  return picked.map((option) => option.id);
}

/**
 * The tags `tag` names: an id must be a ticket tag of the organization (else 404, as another
 * organization's), a name matches the ticket tags of that name in every team (none: a 400).
 */
async function tagFilter(db: Db, organizationId: string, refs: string[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const ref of new Set(refs.map((entry) => entry.trim()))) {
    const byId = ULID.test(ref);
    const rows = await db
      .selectFrom('team_tags')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('tag_type', '=', 'ticket')
      .where((eb) => (byId ? eb('id', '=', ref) : eb(eb.fn('lower', ['name']), '=', ref.toLowerCase())))
      .execute();
    if (rows.length === 0) {
      if (byId) {
        throw AppError.notFound('Tag not found!');
      }
      throw invalid('tag', `is not a ticket tag of any team: ${ref}`);
    }
    for (const row of rows) {
      ids.add(row.id);
    }
  }
  return [...ids].sort();
}

function resolveSort(name: TicketSortName, options: { status: OptionRow[]; priority: OptionRow[] }, filters: TicketFilters) {
  const direction = name.startsWith('-') ? 'desc' : 'asc';
  const field = name.replace(/^-/, '') as TicketSortField;
  const sort: TicketSort = { name, field, direction };
  if (field === 'status' || field === 'priority') {
    const allowed = field === 'status' ? filters.statusIds : filters.priorityIds;
    const ranks = new Map<number, string[]>();
    for (const option of options[field]) {
      if (!allowed || allowed.includes(option.id)) {
        ranks.set(option.position, [...(ranks.get(option.position) ?? []), option.id]);
      }
    }
    sort.ranks = [...ranks.entries()]
      .map(([rank, optionIds]) => ({ rank, optionIds }))
      .sort((a, b) => (direction === 'asc' ? a.rank - b.rank : b.rank - a.rank));
  }
  return sort;
}

/**
 * What a cursor carries of the list it was made for: the sort and the filters (not the
 * organization: another organization's cursor only reads that organization's tickets after it).
 */
function fingerprintOf(sort: TicketSortName, filters: TicketFilters & { slaDueWithin?: number }): string {
  const canonical = JSON.stringify([
    sort,
    Object.entries(filters)
      .filter(([key, value]) => value !== undefined && key !== 'organizationId')
      .sort(),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}
