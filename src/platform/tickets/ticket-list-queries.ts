import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { TicketFilters, TicketSort } from './ticket-filters.js';

/**
 * The SQL of ticket lists (`ticket-filters.ts` checks what they take): `applyTicketFilters` adds
 * the filters' conditions to any query over `tickets`; `ticketPageIds` reads one page of ids in the
 * sort's order, by keyset (or offset for `page`).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** The columns a sort orders by, as the page query selects them (then the id). */
const TIME_COLUMN = { createdAt: 'tickets.created_at', updatedAt: 'tickets.updated_at' } as const;

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
  return applySlaFilters(q, filters) as unknown as QB;
}

/**
 * The SLA filters, each one subquery over `ticket_sla_targets` (an organization's running targets
 * by due time, `ticket_sla_targets_running_due`), added only when asked. A running target has `running_since`; a breached one still
 * running keeps its past `due_at`. Breached at `slaNow` is what the ticket's answer shows: marked
 * breached, or running and past due before the worker marks it.
 */
// biome-ignore lint/suspicious/noExplicitAny: the conditions name `tickets` columns only
function applySlaFilters(query: SelectQueryBuilder<DB, 'tickets', any>, filters: TicketFilters) {
  let q = query;
  const slaDueBefore = filters.slaDueBefore;
  if (slaDueBefore !== undefined) {
    q = q.where('tickets.id', 'in', (eb) =>
      eb
        .selectFrom('ticket_sla_targets as due_target')
        .select('due_target.ticket_id')
        .where('due_target.organization_id', '=', filters.organizationId)
        .where('due_target.running_since', 'is not', null)
        .where('due_target.due_at', '<', slaDueBefore),
    );
  }
  const now = filters.slaNow;
  if (filters.slaBreached !== undefined && now !== undefined) {
    // Two index ranges (`ticket_sla_targets_breached`, `ticket_sla_targets_running_due`): the
    // targets marked breached, and the active ones past due that the worker has not marked yet.
    // The status is written into the SQL: a partial index serves a literal, not a bound value.
    const breached = (eb: ExpressionBuilder<DB, 'tickets'>) =>
      eb
        .selectFrom('ticket_sla_targets as breached_target')
        .select('breached_target.ticket_id')
        .where('breached_target.organization_id', '=', filters.organizationId)
        .where(sql<SqlBool>`${sql.ref('breached_target.status')} = ${sql.lit('breached')}`)
        .unionAll(
          eb
            .selectFrom('ticket_sla_targets as overdue_target')
            .select('overdue_target.ticket_id')
            .where('overdue_target.organization_id', '=', filters.organizationId)
            .where('overdue_target.running_since', 'is not', null)
            .where('overdue_target.due_at', '<', now)
            .where(sql<SqlBool>`${sql.ref('overdue_target.status')} = ${sql.lit('active')}`),
        );
    q = q.where('tickets.id', filters.slaBreached ? 'in' : 'not in', breached);
  }
  return q;
}

/** A ticket's earliest running SLA due time; `NO_SLA_DUE` (after every instant) for a ticket without one. */
function slaDueKey() {
  return sql<string>`coalesce((select min(${sql.ref('sla_due.due_at')}) from ${sql.table('ticket_sla_targets')} as ${sql.id('sla_due')} where ${sql.ref('sla_due.ticket_id')} = ${sql.ref('tickets.id')} and ${sql.ref('sla_due.running_since')} is not null), ${NO_SLA_DUE})`;
}

/**
 * The sort key of a ticket without a running SLA target: later than any due time, so those
 * tickets come last, by id, and keyset pages compare one non-null row value.
 */
export const NO_SLA_DUE = '9999-12-31T23:59:59.999Z';

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
  if (sort.field === 'slaDueAt') {
    // Computed per ticket (no index holds it): one subquery, only for this sort.
    const key = slaDueKey();
    let query = base.select('tickets.id').select(key.as('sort_time')).select(sql<number | null>`null`.as('sort_rank'));
    if (page.after) {
      const [due, id] = page.after;
      query = query.where(sql<SqlBool>`(${key}, ${sql.ref('tickets.id')}) > (${due}, ${id})`);
    }
    query = query.orderBy(key, 'asc').orderBy('tickets.id', 'asc').limit(sql.lit(page.limit));
    return offset ? query.offset(offset) : query;
  }
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
