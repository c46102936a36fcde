import { createHash } from 'node:crypto';
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { type Kysely, type SelectQueryBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import { CursorSchema } from '../../http/pagination.js';
import { PageNumberSchema, UlidSchema } from '../../http/shared-schemas.js';
import { type CursorKey, decodeCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { TICKET_SORTS, type TicketSortName } from '../../shared/ticket-sorts.js';
import { findAccountById } from '../accounts/account.repository.js';
import { findContactById } from '../contacts/customer-contact.repository.js';
import { findCustomFieldsByUids } from '../custom-fields/custom-field.repository.js';
import {
  type CustomFieldValueEntry,
  checkCustomFieldValue,
  MULTI_CHOICE_TYPES,
  valueRulesOf,
} from '../custom-fields/custom-field.values.js';
import { requireTeam } from '../teams/team.lookup.js';
import { findUserById } from '../users/user.repository.js';

/**
 * The filters and sorts of ticket lists, in one place so that every list of tickets (`GET
 * /v1/tickets`, search, saved views) takes the same parameters, checks them alike and turns them
 * into the same SQL:
 * - the query-string schema (`TicketFilterProperties`, `TicketSortProperties`, custom-field keys
 *   `cf.<fieldId>` as `CUSTOM_FIELD_FILTER_PATTERN`);
 * - `resolveTicketQuery`: checks the values against the organization (404 for another one's ids,
 *   400 naming the field for unknown names) and answers `TicketFilters`, a `TicketSort` and the
 *   fingerprint a cursor carries, so a cursor of one filter set is refused by another;
 * - `applyTicketFilters(query, filters)`: the conditions, on any query over `tickets`;
 * - `ticketPageIds`: one page of ids in the sort's order, by keyset (or offset for `page`);
 * - `writeTicketCustomFieldValues`: keeps the index table of custom-field values in step.
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
};

export const TicketSortProperties = {
  sort: Type.Optional(
    Type.Union(
      TICKET_SORTS.map((name) => Type.Literal(name)),
      {
        default: '-createdAt',
        description:
          'Order of the list: a field, descending with a leading `-` (default `-createdAt`, newest first). ' +
          "`priority` and `status` follow the order of the team's options (low to urgent, open to closed), then the creation time",
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
}

export type TicketSortField = 'createdAt' | 'updatedAt' | 'priority' | 'status';

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
 * With `teamsCheckedByCaller`, the teams are the caller's to check (`requireTeams`).
 */
export async function resolveTicketQuery(
  db: Db,
  principal: Principal,
  query: TicketFilterQuery,
  checks: { teamsCheckedByCaller?: boolean } = {},
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
    if (!(await findUserById(db, organizationId, query.assignedAgentId))) {
      throw AppError.notFound('User not found!');
    }
    filters.assignedAgentId = query.assignedAgentId;
  }
  filters.requestorEmail = query.requestorEmail?.trim().toLowerCase();
  if (query.customerContactId) {
    if (!(await findContactById(db, organizationId, query.customerContactId))) {
      throw AppError.notFound('Customer contact not found!');
    }
    filters.customerContactId = query.customerContactId;
  }
  if (query.accountId) {
    if (!(await findAccountById(db, organizationId, query.accountId))) {
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
  const sort = resolveSort(query.sort ?? '-createdAt', options, filters);
  return { filters, sort, fingerprint: fingerprintOf(sort.name, filters) };
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

async function customFieldFilters(db: Db, organizationId: string, query: TicketFilterQuery) {
  const entries = Object.entries(query).filter(([key]) => key.startsWith('cf.'));
  if (entries.length === 0) {
    return undefined;
  }
  const fields = new Map(
    (
      await findCustomFieldsByUids(
        db,
        organizationId,
        entries.map(([key]) => key.slice(3)),
      )
    ).map((field) => [field.uid, field]),
  );
  return entries
    .map(([key, raw]) => {
      const field = fields.get(key.slice(3));
      if (!field) {
        throw AppError.notFound('Custom field not found!');
      }
      if (field.source !== 'ticket') {
        throw invalid(key, `is a custom field of ${field.source} records, not of tickets`, 'source');
      }
      const text = String(raw);
      const checked = checkCustomFieldValue(valueRulesOf(field), MULTI_CHOICE_TYPES.includes(field.field_type) ? [text] : text);
      const [valueKey] = checked.ok ? customFieldValueKeys(checked.value) : [];
      if (!checked.ok || valueKey === undefined) {
        throw invalid(key, checked.ok ? 'must not be blank' : checked.problem, 'customFieldValue');
      }
      return { fieldId: field.uid, valueKey };
    })
    .sort((a, b) => a.fieldId.localeCompare(b.fieldId) || a.valueKey.localeCompare(b.valueKey));
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
function fingerprintOf(sort: TicketSortName, filters: TicketFilters): string {
  const canonical = JSON.stringify([
    sort,
    Object.entries(filters)
      .filter(([key, value]) => value !== undefined && key !== 'organizationId')
      .sort(),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** The columns a sort orders by, as the page query selects them (then the id). */
const TIME_COLUMN = { createdAt: 'tickets.created_at', updatedAt: 'tickets.updated_at' } as const;

/** The keys of a cursor for `sort`: the sort values of a page's last row, then the fingerprint. */
export function ticketCursorKeys(
  sort: TicketSort,
  fingerprint: string,
  row: { id: string; created_at: string; updated_at: string; status_id: string; priority_id: string },
): CursorKey[] {
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
    throw invalid('cursor', 'and page cannot be combined', 'exclusive');
  }
  const timeSort = resolved.sort.field === 'createdAt' || resolved.sort.field === 'updatedAt';
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

const NOTHING = sql<SqlBool>`1 = 0`;

/**
 * Adds the filters' conditions to a query over `tickets` (which may join other tables). Each
 * condition has an index that starts with it (see migration 2026-11-24T0200_ticket_filters).
 */
// biome-ignore lint/suspicious/noExplicitAny: any query that reads `tickets`
export function applyTicketFilters<QB extends SelectQueryBuilder<DB, any, any>>(query: QB, filters: TicketFilters): QB {
  // biome-ignore lint/suspicious/noExplicitAny: the conditions name `tickets` columns only
  let q = query as unknown as SelectQueryBuilder<DB, 'tickets', any>;
  const inList = (column: 'tickets.team_id' | 'tickets.status_id' | 'tickets.priority_id', ids: string[] | undefined) => {
    if (ids !== undefined) {
      q = ids.length === 0 ? q.where(NOTHING) : q.where(column, 'in', ids);
    }
  };
  inList('tickets.team_id', filters.teamIds);
  inList('tickets.status_id', filters.statusIds);
  inList('tickets.priority_id', filters.priorityIds);
  if (filters.assignedAgentId !== undefined) {
    q =
      filters.assignedAgentId === null
        ? q.where('tickets.assigned_agent_id', 'is', null)
        : q.where('tickets.assigned_agent_id', '=', filters.assignedAgentId);
  }
  if (filters.requestorEmail !== undefined) {
    const email = filters.requestorEmail;
    q = q.where((eb) => eb(eb.fn('lower', ['tickets.requestor_email']), '=', email));
  }
  if (filters.customerContactId !== undefined) {
    q = q.where('tickets.customer_contact_id', '=', filters.customerContactId);
  }
  if (filters.accountId !== undefined) {
    q = q.where('tickets.account_id', '=', filters.accountId);
  }
  for (const [key, column, op] of [
    ['createdAfter', 'tickets.created_at', '>='],
    ['createdBefore', 'tickets.created_at', '<'],
    ['updatedAfter', 'tickets.updated_at', '>='],
    ['updatedBefore', 'tickets.updated_at', '<'],
  ] as const) {
    const value = filters[key];
    if (value !== undefined) {
      q = q.where(column, op, value);
    }
  }
  if (filters.isPrivate !== undefined) {
    q = q.where('tickets.is_private', '=', filters.isPrivate);
  }
  for (const { fieldId, valueKey } of filters.customFields ?? []) {
    q = q.where('tickets.id', 'in', (eb) =>
      eb
        .selectFrom('ticket_custom_field_values as cfv')
        .select('cfv.ticket_id')
        .where('cfv.organization_id', '=', filters.organizationId)
        .where('cfv.field_id', '=', fieldId)
        .where('cfv.value_key', '=', valueKey),
    );
  }
  if (filters.tagIds !== undefined) {
    const tagIds = filters.tagIds;
    q = q.where('tickets.id', 'in', (eb) =>
      eb.selectFrom('ticket_tags').select('ticket_tags.ticket_id').where('ticket_tags.tag_id', 'in', tagIds),
    );
  }
  return q as unknown as QB;
}

/** More ranges than this are not merged (SQLite allows 500 members in a UNION); see `ticketPageIds`. */
const MAX_MERGED_RANGES = 100;

interface Range {
  column: 'tickets.status_id' | 'tickets.priority_id';
  optionIds: string[];
  /** The rank of a `status`/`priority` sort, the same for the whole range; null for a time sort. */
  rank: number | null;
}

/**
 * One page of ids from `base` (a query over `tickets` with its conditions), in the sort's order,
 * with the sort values: after `after` (a cursor's keys), or skipping `offset` rows (a `page`).
 *
 * A time sort is one index range. A range of several statuses or priorities cannot come in order
 * from one index, so a page reads each option as its own range of `(status_id|priority_id,
 * created_at, id)`, at most `limit` rows each, and merges them (UNION ALL, then a sort of those few
 * rows): a `priority` or `status` sort (each option taking its rank), and a newest-first list
 * filtered on several statuses or priorities (say, `statusName=open` across teams). A deep cursor
 * page then reads as many rows as the first. `filters` are the ones applied to `base`.
 */
// Page sizes are written into the statements (`sql.lit`), not bound: PostgreSQL's generic plan
// of a prepared statement guesses a bound LIMIT at a tenth of the table, and then joins the page
// to the read model by reading every ticket (1.3 s at a million), so it planned each request
// afresh instead (~5 ms for these joins). With a literal the generic plan is the page's plan,
// planned once per connection. (A merged range of a `page` reads `offset + limit` rows, the offset
// bound: a literal would make a statement per page number.)
export function ticketPageIds(
  db: Db,
  // biome-ignore lint/suspicious/noExplicitAny: any query over `tickets`
  base: SelectQueryBuilder<DB, 'tickets', any>,
  sort: TicketSort,
  page: { limit: number; offset?: number; after?: readonly CursorKey[] },
  filters?: TicketFilters,
) {
  const direction = sort.direction;
  const offset = page.offset ?? 0;
  const ranges = rangesOf(sort, filters, page.after);
  if (ranges === null && sort.ranks) {
    // Too many ranks to merge: the rank as a CASE over the options, sorted by the database.
    const rank = rankExpression(sort);
    let query = base.select(['tickets.id', 'tickets.created_at as sort_time']).select(rank.as('sort_rank'));
    if (page.after) {
      const [afterRank, time, id] = page.after;
      const op = sql.raw(direction === 'asc' ? '>' : '<');
      query = query.where(
        sql<SqlBool>`(${rank}, ${sql.ref('tickets.created_at')}, ${sql.ref('tickets.id')}) ${op} (${afterRank}, ${time}, ${id})`,
      );
    }
    query = query
      .orderBy(rank, direction)
      .orderBy('tickets.created_at', direction)
      .orderBy('tickets.id', direction)
      .limit(sql.lit(page.limit));
    return offset ? query.offset(offset) : query;
  }
  if (ranges === null) {
    const column = sort.field === 'updatedAt' ? TIME_COLUMN.updatedAt : TIME_COLUMN.createdAt;
    let query = base.select(['tickets.id', `${column} as sort_time`]).select(sql<number | null>`null`.as('sort_rank'));
    if (page.after) {
      query = query.where(afterKeys([column, 'tickets.id'], page.after, direction));
    }
    query = query.orderBy(column, direction).orderBy('tickets.id', direction).limit(sql.lit(page.limit));
    return offset ? query.offset(offset) : query;
  }
  const afterRank = page.after && sort.ranks ? page.after[0] : undefined;
  const branches = ranges.map((range, index) => {
    let branch = base
      .where(range.column, 'in', range.optionIds)
      .select(['tickets.id', 'tickets.created_at as sort_time'])
      .select(sql<number | null>`${range.rank === null ? sql`null` : sql.lit(range.rank)}`.as('sort_rank'));
    if (page.after && (afterRank === undefined || range.rank === afterRank)) {
      branch = branch.where(afterKeys(['tickets.created_at', 'tickets.id'], page.after.slice(-2), direction));
    }
    branch = branch
      .orderBy('tickets.created_at', direction)
      .orderBy('tickets.id', direction)
      .limit(offset ? sql<number>`${offset} + ${sql.lit(page.limit)}` : sql.lit(page.limit));
    // Wrapped: SQLite allows no ORDER BY or LIMIT on the members of a UNION.
    return db.selectFrom(branch.as(`range${index}`)).selectAll();
  });
  const [first, ...rest] = branches;
  if (!first) {
    return base
      .where(NOTHING)
      .select(['tickets.id', 'tickets.created_at as sort_time'])
      .select(sql<number | null>`null`.as('sort_rank'));
  }
  const union = rest.reduce((all, branch) => all.unionAll(branch), first);
  let query = db.selectFrom(union.as('ranked')).select(['ranked.id', 'ranked.sort_time', 'ranked.sort_rank']);
  if (sort.ranks) {
    query = query.orderBy('ranked.sort_rank', direction);
  }
  query = query.orderBy('ranked.sort_time', direction).orderBy('ranked.id', direction).limit(sql.lit(page.limit));
  return offset ? query.offset(offset) : query;
}

/**
 * The ranges a page merges, or null when it reads one index range (or, past MAX_MERGED_RANGES
 * options, one sorted query): for a rank sort, each option still ahead of the cursor; for a
 * newest-first list filtered on 2 to MAX_MERGED_RANGES statuses (else priorities), each of them.
 */
function rangesOf(sort: TicketSort, filters: TicketFilters | undefined, after: readonly CursorKey[] | undefined): Range[] | null {
  if (sort.ranks) {
    const column = sort.field === 'status' ? 'tickets.status_id' : 'tickets.priority_id';
    const afterRank = after?.[0];
    const ahead = sort.ranks.filter(
      (group) => typeof afterRank !== 'number' || (sort.direction === 'asc' ? group.rank >= afterRank : group.rank <= afterRank),
    );
    const count = ahead.reduce((total, group) => total + group.optionIds.length, 0);
    if (count > MAX_MERGED_RANGES) {
      return ahead.length > MAX_MERGED_RANGES
        ? null
        : ahead.map((group) => ({ column, optionIds: group.optionIds, rank: group.rank }));
    }
    return ahead.flatMap((group) => group.optionIds.map((id) => ({ column, optionIds: [id], rank: group.rank })));
  }
  if (sort.field !== 'createdAt') {
    return null;
  }
  for (const [column, ids] of [
    ['tickets.status_id', filters?.statusIds],
    ['tickets.priority_id', filters?.priorityIds],
  ] as const) {
    if (ids && ids.length > 1 && ids.length <= MAX_MERGED_RANGES) {
      return ids.map((id) => ({ column, optionIds: [id], rank: null }));
    }
  }
  return null;
}

/** The rank of a ticket's option as a CASE over the options (the fallback for very many options). */
function rankExpression(sort: TicketSort) {
  const column = sort.field === 'status' ? 'tickets.status_id' : 'tickets.priority_id';
  const cases = (sort.ranks ?? []).map(
    (group) => sql`when ${sql.ref(column)} in (${sql.join(group.optionIds)}) then ${sql.lit(group.rank)}`,
  );
  return sql<number | null>`case ${sql.join(cases, sql` `)} end`;
}

/**
 * The normal forms of a custom-field value that filters match: text in lower case, numbers in
 * JavaScript's shortest form, one per option of a multiple choice. A text too long for an index
 * entry becomes its SHA-256 (a filter for the same text computes the same). The migration that
 * filled the table holds a copy of this: change both or neither.
 */
export function customFieldValueKeys(value: unknown): string[] {
  const one = (item: unknown): string | null => {
    if (typeof item === 'number' && Number.isFinite(item)) {
      return String(item);
    }
    if (typeof item !== 'string' || item.trim() === '') {
      return null;
    }
    const text = item.trim().toLowerCase();
    return text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
  };
  const keys = (Array.isArray(value) ? value : [value]).map(one).filter((key): key is string => key !== null);
  return [...new Set(keys)];
}

/**
 * Rewrites a ticket's rows in `ticket_custom_field_values` from its values, in the caller's
 * transaction, so a filter sees what the ticket holds as soon as the change commits.
 */
export async function writeTicketCustomFieldValues(
  trx: Transaction<DB>,
  ticket: { id: string; organization_id: string },
  values: readonly CustomFieldValueEntry[],
  options: { replace: boolean } = { replace: true },
): Promise<void> {
  if (options.replace) {
    await trx.deleteFrom('ticket_custom_field_values').where('ticket_id', '=', ticket.id).execute();
  }
  const rows = values.flatMap((entry) =>
    customFieldValueKeys(entry.value).map((valueKey) => ({
      ticket_id: ticket.id,
      field_id: entry.fieldId,
      value_key: valueKey,
      organization_id: ticket.organization_id,
    })),
  );
  if (rows.length > 0) {
    await trx.insertInto('ticket_custom_field_values').values(rows).execute();
  }
}
