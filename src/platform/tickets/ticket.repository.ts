import { type Kysely, type SelectQueryBuilder, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQuery, prepareQueryOfInput, type Slot } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { jsonArrayOf } from '../../db/dialect.js';
import type { CursorKey } from '../../lib/cursors.js';
import { firstReplyOfEnclosingTicket } from '../reports/report-reply.repository.js';
import { targetStatesOfEnclosingTicket } from '../ticket-sla/ticket-sla.repository.js';
import { tagsOfEnclosingTicket } from '../ticket-tags/ticket-tag.repository.js';
import type { TicketTable } from './ticket.table.js';
import type { TicketFilters, TicketSort } from './ticket-filters.js';
import { applyTicketFilters, ticketPageIds } from './ticket-list-queries.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The next number of a team's tickets. The counter row is bumped in the caller's transaction, so
 * concurrent creations queue on it (PostgreSQL row lock, SQLite's single writer) and a rolled-back
 * creation gives its number back: no gaps, no duplicates.
 */
export async function nextTicketNumber(db: Db, teamId: string): Promise<number> {
  const row = await db
    .insertInto('team_ticket_counters')
    .values({ team_id: teamId, last_number: 1 })
    .onConflict((oc) =>
      oc.column('team_id').doUpdateSet((eb) => ({ last_number: eb('team_ticket_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

export async function insertTicket(db: Db, row: TicketTable): Promise<void> {
  await db.insertInto('tickets').values(row).execute();
}

export async function updateTicket(
  db: Db,
  organizationId: string,
  ticketId: string,
  changes: Updateable<TicketTable>,
): Promise<void> {
  await db.updateTable('tickets').set(changes).where('organization_id', '=', organizationId).where('id', '=', ticketId).execute();
}

/** A ticket with the names shown beside its ids. */
// biome-ignore lint/suspicious/noExplicitAny: a page query of any shape that selects `id`
function selectTickets(db: Db, page?: SelectQueryBuilder<any, any, { id: string }>) {
  const tickets = db.selectFrom('tickets');
  // A page's ids join first: PostgreSQL keeps the written order of more joins than its
  // join_collapse_limit (8), and a page joined last would have it read every ticket before
  // keeping the page's (seconds at a million tickets).
  const from = page ? (tickets.innerJoin(page.as('page'), 'page.id', 'tickets.id') as unknown as typeof tickets) : tickets;
  return from
    .innerJoin('teams', 'teams.id', 'tickets.team_id')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .innerJoin('ticket_options as priority', 'priority.id', 'tickets.priority_id')
    .leftJoin('ticket_options as type', 'type.id', 'tickets.type_id')
    .leftJoin('users as agent', 'agent.id', 'tickets.assigned_agent_id')
    .leftJoin('customer_contacts as contact', 'contact.id', 'tickets.customer_contact_id')
    .leftJoin('accounts as account', 'account.id', 'tickets.account_id')
    .selectAll('tickets')
    .select([
      'teams.name as team_name',
      'teams.identifier as team_identifier',
      'status.display_name as status_name',
      'status.is_closed as status_is_closed',
      'priority.display_name as priority_name',
      'type.display_name as type_name',
      'agent.name as agent_name',
      'agent.email as agent_email',
      'agent.avatar_url as agent_avatar',
      'contact.first_name as contact_first_name',
      'contact.last_name as contact_last_name',
      'contact.email as contact_email',
      'account.name as account_name',
    ]);
}

export type TicketRow = Awaited<ReturnType<ReturnType<typeof selectTickets>['executeTakeFirstOrThrow']>> & {
  /** The ticket's tags as JSON, when the read brought them along (one ticket read by key). */
  tags_json?: string;
  /** Its SLA targets as JSON, likewise (one ticket read by key). */
  sla_json?: string;
};

/**
 * What routes about a ticket's comments need of the ticket: who may see it (with whether the
 * viewer is a member of its team, in the same statement), what its emails show, and what a comment
 * by the viewer shows of its author (so writing one needs no second lookup). Narrow and compiled
 * once, where the read model joins seven tables.
 */
interface TicketAccessResult {
  id: string;
  created_at: string;
  organization_id: string;
  team_id: string;
  is_private: boolean | number;
  assigned_agent_id: string | null;
  requestor_email: string;
  ticket_identifier: string;
  title: string;
  source: string | null;
  /** JSON: a ticket from Slack keeps its thread here (`slack.channelId`, `slack.threadTs`). */
  metadata: string | null;
  viewer_is_member: boolean | number;
  viewer_name: string | null;
  viewer_user_type: string | null;
  viewer_avatar_url: string | null;
  /** Whether the ticket had its first public reply by a person (the reports' mark). */
  first_replied: boolean | number;
  has_sla_targets: boolean | number;
  /** The team's business hours (all null when the team has no configuration). */
  hours_timezone: string | null;
  hours_common_daily_config: boolean | number | null;
  hours_common_slots: string | null;
  hours_daily_config: string | null;
  hours_holidays: string | null;
}

/** A ticket named by its id (`key: 'id'`) or by its identifier in lower case (`key: 'identifier'`). */
type TicketKey = 'id' | 'identifier';

// biome-ignore lint/suspicious/noExplicitAny: a query over `tickets` of any selection
function whereTicketKey<QB extends SelectQueryBuilder<DB, 'tickets', any>>(query: QB, key: TicketKey, value: string): QB {
  if (key === 'id') {
    return query.where('tickets.id', '=', value) as QB;
  }
  // Index: tickets_organization_identifier. No ORDER BY here: it would tempt SQLite to walk the
  // tickets in creation order instead of looking the name up (see `newest`).
  return query.where((eb) => eb(eb.fn('lower', ['tickets.ticket_identifier']), '=', value)) as QB;
}

/**
 * The ticket a name stands for. The identifier a ticket was given stays its name when its team
 * changes identifier, and a team may take an identifier another gave up: of two tickets with one
 * name (rare, and never more than a few), the newest is the current holder's.
 */
function newest<Row extends { created_at: string; id: string }>(rows: Row[]): Row | undefined {
  return rows.reduce<Row | undefined>(
    (best, row) =>
      !best || row.created_at > best.created_at || (row.created_at === best.created_at && row.id > best.id) ? row : best,
    undefined,
  );
}

function ticketAccessStatement(key: TicketKey) {
  return prepareQuery<{ organizationId: string; ticket: string; viewerId: string }, TicketAccessResult>((db: Db, param) =>
    whereTicketKey(
      db
        .selectFrom('tickets')
        .leftJoin('users as viewer', (join) =>
          join.on('viewer.id', '=', param('viewerId')).onRef('viewer.organization_id', '=', 'tickets.organization_id'),
        )
        .leftJoin('team_configurations as team_hours', 'team_hours.team_id', 'tickets.team_id')
        .select((eb) => [
          'viewer.name as viewer_name',
          'viewer.user_type as viewer_user_type',
          'viewer.avatar_url as viewer_avatar_url',
          'tickets.id',
          'tickets.created_at',
          'tickets.organization_id',
          'tickets.team_id',
          'tickets.is_private',
          'tickets.assigned_agent_id',
          'tickets.requestor_email',
          'tickets.ticket_identifier',
          'tickets.title',
          'tickets.source',
          'tickets.metadata',
          eb
            .exists(
              eb
                .selectFrom('team_members')
                .select('team_members.user_id')
                .whereRef('team_members.team_id', '=', 'tickets.team_id')
                .where('team_members.user_id', '=', param('viewerId')),
            )
            .as('viewer_is_member'),
          // What a reply by the viewer counts and meets: its first reply, its SLA targets (none: nothing to meet).
          eb.exists(firstReplyOfEnclosingTicket(eb)).as('first_replied'),
          eb.exists(targetStatesOfEnclosingTicket(eb)).as('has_sla_targets'),
          // Its team's hours: the local day a reply counts on in the reports, and its first-reply time.
          'team_hours.timezone as hours_timezone',
          'team_hours.common_daily_config as hours_common_daily_config',
          'team_hours.common_slots as hours_common_slots',
          'team_hours.daily_config as hours_daily_config',
          'team_hours.holidays as hours_holidays',
        ])
        .where('tickets.organization_id', '=', param('organizationId'))
        .where('tickets.deleted_at', 'is', null),
      key,
      param('ticket'),
    ),
  );
}

/**
 * What routes about a ticket's comments need of the ticket: who may see it (with whether the
 * viewer is a member of its team, in the same statement), what its emails show, and what a comment
 * by the viewer shows of its author (so writing one needs no second lookup). Narrow and compiled
 * once, where the read model joins seven tables; one statement per way of naming a ticket.
 */
const findTicketAccessStatements = { id: ticketAccessStatement('id'), identifier: ticketAccessStatement('identifier') };

export type TicketAccessRow = NonNullable<Awaited<ReturnType<typeof findTicketAccess>>>;

/** `ticketId` is an id, or with `key: 'identifier'` a ticket identifier in lower case (`bill-1`). */
export async function findTicketAccess(
  db: Db,
  organizationId: string,
  ticketId: string,
  viewerId: string,
  key: TicketKey = 'id',
): Promise<TicketAccessResult | undefined> {
  const { rows } = await findTicketAccessStatements[key].execute(db, { organizationId, ticket: ticketId, viewerId });
  return rows.length > 1 ? newest(rows) : rows[0];
}

function ticketByKeyStatement(key: TicketKey) {
  return prepareQuery<{ organizationId: string; ticket: string }, TicketRow>((db: Db, param) =>
    whereTicketKey(
      selectTickets(db)
        // Its tags and SLA targets in the same statement: one round trip for a ticket read.
        .select((eb) => [
          jsonArrayOf(db, tagsOfEnclosingTicket(eb)).as('tags_json'),
          jsonArrayOf(db, targetStatesOfEnclosingTicket(eb)).as('sla_json'),
        ])
        .where('tickets.organization_id', '=', param('organizationId'))
        .where('tickets.deleted_at', 'is', null),
      key,
      param('ticket'),
    ),
  );
}

const findTicketStatements = { id: ticketByKeyStatement('id'), identifier: ticketByKeyStatement('identifier') };

/**
 * A live ticket of the organization with its names: the read model, compiled once. `ticketId` is
 * an id, or with `key: 'identifier'` a ticket identifier in lower case (`bill-1`).
 */
export async function findTicketById(
  db: Db,
  organizationId: string,
  ticketId: string,
  key: TicketKey = 'id',
): Promise<TicketRow | undefined> {
  const { rows } = await findTicketStatements[key].execute(db, { organizationId, ticket: ticketId });
  return rows.length > 1 ? newest(rows) : rows[0];
}

export interface TicketListFilter {
  viewerId: string;
  seeAll: boolean;
  /** The list's filters (`ticket-filters.ts`); none: every visible ticket. */
  filters?: TicketFilters;
  /** Newest first when absent. */
  sort?: TicketSort;
  limit: number;
  /** Rows to skip (a `page`), or the keys of the last row of the page before (a cursor). */
  offset?: number;
  after?: readonly CursorKey[];
  /**
   * The page is empty unless every team of the team filter is an active team of the organization:
   * the check `requireTeams` makes, in the page's statement instead of one more round trip.
   */
  onlyOfActiveTeams?: boolean;
}

const NEWEST_FIRST: TicketSort = { name: '-createdAt', field: 'createdAt', direction: 'desc' };

/**
 * The live tickets of the organization the viewer may see: private tickets only for members of
 * their team, their assignee, or everyone when `seeAll`. The base of every ticket list, which
 * adds its filters and order.
 */
export function visibleTickets(db: Db, organizationId: string, viewer: { viewerId: string; seeAll: boolean }) {
  const query = db
    .selectFrom('tickets')
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.deleted_at', 'is', null);
  if (viewer.seeAll) {
    return query;
  }
  return query.where((eb) =>
    eb.or([
      eb('tickets.is_private', '=', false),
      eb('tickets.assigned_agent_id', '=', viewer.viewerId),
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.user_id')
          .whereRef('team_members.team_id', '=', 'tickets.team_id')
          .where('team_members.user_id', '=', viewer.viewerId),
      ),
    ]),
  );
}

/**
 * The ids of one page of visible live tickets, with their sort values, from an index range: the
 * `tickets_live_*` indexes hold the order and what visibility reads (see `ticketPageIds`).
 */
export function visibleTicketIds(db: Db, organizationId: string, filter: TicketListFilter) {
  let base = visibleTickets(db, organizationId, filter);
  if (filter.filters) {
    base = applyTicketFilters(base, filter.filters);
  }
  const teamIds = filter.filters?.teamIds;
  if (filter.onlyOfActiveTeams && teamIds?.length) {
    // Not correlated with the ticket: both databases evaluate it once for the statement.
    base = base.where((eb) =>
      eb(
        eb
          .selectFrom('teams')
          .select((count) => count.fn.countAll().as('active_teams'))
          .where('teams.id', 'in', teamIds)
          .where('teams.organization_id', '=', organizationId)
          .where('teams.archived_at', 'is', null),
        '=',
        sql.lit(teamIds.length),
      ),
    );
  }
  return ticketPageIds(db, base, filter.sort ?? NEWEST_FIRST, filter, filter.filters);
}

/**
 * How many visible tickets the filters keep, counting no further than `cap`: at most `cap + 1`
 * entries of the index the planner picks for the filters, whatever the size of the table.
 */
export async function countVisibleTickets(
  db: Db,
  organizationId: string,
  filter: Pick<TicketListFilter, 'viewerId' | 'seeAll' | 'filters'> & { cap: number },
): Promise<number> {
  let query = visibleTickets(db, organizationId, filter);
  if (filter.filters) {
    query = applyTicketFilters(query, filter.filters);
  }
  const matching = query.select('tickets.id').limit(filter.cap + 1);
  const row = await db
    .selectFrom(matching.as('matching'))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The input of a page of tickets with every value the page statement binds put through `slot`:
 * what is left (which filters are given, how many ids each lists, the sort and its ranks, the page
 * size, whether it is a `page` or a cursor) is the statement's shape.
 */
function markTicketPage(
  input: { organizationId: string; filter: TicketListFilter },
  slot: Slot,
): { organizationId: string; filter: TicketListFilter } {
  const { filter } = input;
  const ids = (name: string, list: string[] | undefined) => list?.map((id, index) => slot(`${name}.${index}`, id));
  const one = <T>(name: string, value: T) => (value === undefined || value === null ? value : slot(name, value));
  const filters = filter.filters;
  const sort = filter.sort ?? NEWEST_FIRST;
  // A rank sort's cursor starts with the rank it stopped at, which chooses the ranges a page reads.
  const afterRank = sort.ranks && filter.after ? 1 : 0;
  // Every field and filter named (`satisfies`): one left out here would be left out of the SQL.
  const marked = {
    viewerId: slot('viewerId', filter.viewerId),
    seeAll: filter.seeAll,
    onlyOfActiveTeams: filter.onlyOfActiveTeams,
    filters:
      filters &&
      ({
        organizationId: slot('organizationId', filters.organizationId),
        teamIds: ids('teamIds', filters.teamIds),
        statusIds: ids('statusIds', filters.statusIds),
        priorityIds: ids('priorityIds', filters.priorityIds),
        assignedAgentId: one('assignedAgentId', filters.assignedAgentId),
        requestorEmail: one('requestorEmail', filters.requestorEmail),
        customerContactId: one('customerContactId', filters.customerContactId),
        accountId: one('accountId', filters.accountId),
        createdAfter: one('createdAfter', filters.createdAfter),
        createdBefore: one('createdBefore', filters.createdBefore),
        updatedAfter: one('updatedAfter', filters.updatedAfter),
        updatedBefore: one('updatedBefore', filters.updatedBefore),
        isPrivate: filters.isPrivate,
        customFields: filters.customFields?.map((entry, index) => ({
          fieldId: slot(`customFields.${index}.fieldId`, entry.fieldId),
          valueKey: slot(`customFields.${index}.valueKey`, entry.valueKey),
        })),
        tagIds: ids('tagIds', filters.tagIds),
        slaDueBefore: one('slaDueBefore', filters.slaDueBefore),
        slaBreached: filters.slaBreached,
        slaNow: one('slaNow', filters.slaNow),
      } satisfies Record<keyof TicketFilters, unknown>),
    sort: sort.ranks
      ? {
          ...sort,
          ranks: sort.ranks.map((group, index) => ({
            rank: group.rank,
            optionIds: ids(`ranks.${index}`, group.optionIds) ?? [],
          })),
        }
      : sort,
    limit: filter.limit,
    offset: filter.offset ? slot('offset', filter.offset) : filter.offset,
    after: filter.after && [
      ...filter.after.slice(0, afterRank),
      ...filter.after.slice(afterRank).map((key, index) => slot(`after.${index}`, key)),
    ],
  } satisfies TicketListFilter & Record<keyof TicketListFilter, unknown>;
  return { organizationId: slot('organizationId', input.organizationId), filter: marked };
}

/**
 * One page of tickets in the list's order, as a deferred join: the page's ids come from an index
 * range (however deep the page), and only those rows are read and joined to their names and tags.
 * The page's tags come in the same statement (a JSON array per ticket): one round trip for a page.
 * Compiled once per shape (`markTicketPage`): building it cost as much as running it.
 */
const ticketPageStatement = prepareQueryOfInput(markTicketPage, (db, { organizationId, filter }) => {
  const sort = filter.sort ?? NEWEST_FIRST;
  const query = selectTickets(db as Db, visibleTicketIds(db as Db, organizationId, filter)).select((eb) =>
    jsonArrayOf(db, tagsOfEnclosingTicket(eb)).as('tags_json'),
  );
  if (sort.field === 'slaDueAt') {
    // The page's sort key comes along: the cursor of the page's last ticket carries it.
    return query
      .select(sql<string>`${sql.ref('page.sort_time')}`.as('sla_sort_key'))
      .orderBy(sql.ref('page.sort_time'), 'asc')
      .orderBy('tickets.id', 'asc');
  }
  const ordered =
    sort.field === 'createdAt' || sort.field === 'updatedAt'
      ? query.orderBy(sort.field === 'createdAt' ? 'tickets.created_at' : 'tickets.updated_at', sort.direction)
      : query.orderBy(sql.ref('page.sort_rank'), sort.direction).orderBy('tickets.created_at', sort.direction);
  return ordered.orderBy('tickets.id', sort.direction);
});

/** With `sla_sort_key` (the earliest running SLA due time, or `NO_SLA_DUE`) on a `slaDueAt` page. */
export async function listTickets(
  db: Db,
  organizationId: string,
  filter: TicketListFilter,
): Promise<(TicketRow & { sla_sort_key?: string })[]> {
  return (await ticketPageStatement.execute(db, { organizationId, filter })).rows;
}

/** A ticket of the organization with its names, deleted or not: what the event log records of a change. */
export async function findTicketIncludingDeleted(
  db: Db,
  organizationId: string,
  ticketId: string,
): Promise<TicketRow | undefined> {
  return selectTickets(db)
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
}

/** Live tickets of the organization with their names (the read model), in no order. */
export async function findTicketsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<TicketRow[]> {
  if (ids.length === 0) {
    return [];
  }
  // Read by primary key alone, then kept if live and of the organization: with the organization in
  // the WHERE clause, SQLite without statistics (`ANALYZE` is never run on a live database) reads
  // the organization's tickets through its index instead (250 ms at a million, for ten ids).
  const rows = await selectTickets(db).where('tickets.id', 'in', ids).execute();
  return rows.filter((row) => row.organization_id === organizationId && row.deleted_at === null);
}
