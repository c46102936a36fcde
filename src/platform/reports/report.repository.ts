import type { Kysely, Transaction } from 'kysely';
import { prepareQuery, prepareQueryOfInput, type Slot } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inJsonArray } from '../../db/dialect.js';
import { type ReportScope, rowsOfScope, type SumOptions } from './report.levels.js';
import type { DurationMetric, ReportDailyCountTable, ReportDurationBinTable } from './report.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const KEY = ['organization_id', 'team_id', 'agent_id', 'day'] as const;

/** Rows as the statement binds them: every value through `slot`, so the count of rows is the shape. */
function slotted<Row extends object>(rows: readonly Row[], slot: Slot): Row[] {
  return rows.map(
    (row, index) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, slot(`${column}.${index}`, value)])) as Row,
  );
}

// A reply, a new ticket or a change writes a few rows (the key, its team's, everyone's): compiled
// once per count of rows and columns, as the comment path runs it on every reply.
const upsertDailyCounts = prepareQueryOfInput<ReportDailyCountTable[], never>(slotted, (db, rows) =>
  (db as Db)
    .insertInto('report_daily_counts')
    .values(rows)
    .onConflict((conflict) =>
      conflict.columns([...KEY]).doUpdateSet((eb) => ({
        created: eb('report_daily_counts.created', '+', eb.ref('excluded.created')),
        closed: eb('report_daily_counts.closed', '+', eb.ref('excluded.closed')),
        reopened: eb('report_daily_counts.reopened', '+', eb.ref('excluded.reopened')),
        public_replies: eb('report_daily_counts.public_replies', '+', eb.ref('excluded.public_replies')),
        backlog_delta: eb('report_daily_counts.backlog_delta', '+', eb.ref('excluded.backlog_delta')),
      })),
    ),
);

/** Adds the rows' counts to their keys' (one row per key; rows sorted by key, so writers lock keys in one order). */
export async function addDailyCounts(trx: Transaction<DB>, rows: readonly ReportDailyCountTable[]): Promise<void> {
  if (rows.length > 0) {
    await upsertDailyCounts.execute(trx, [...rows]);
  }
}

const upsertDurationBins = prepareQueryOfInput<ReportDurationBinTable[], never>(slotted, (db, rows) =>
  (db as Db)
    .insertInto('report_duration_bins')
    .values(rows)
    .onConflict((conflict) =>
      conflict
        .columns([...KEY, 'metric', 'bin'])
        .doUpdateSet((eb) => ({ count: eb('report_duration_bins.count', '+', eb.ref('excluded.count')) })),
    ),
);

/** Adds the rows' counts to their bins (one row per bin, sorted). */
export async function addDurationBins(trx: Transaction<DB>, rows: readonly ReportDurationBinTable[]): Promise<void> {
  if (rows.length > 0) {
    await upsertDurationBins.execute(trx, [...rows]);
  }
}

type FirstReplyRow = { ticket_id: string; organization_id: string; replied_at: string };

const markFirstReplyStatement = prepareQuery<FirstReplyRow, never>((db, param) =>
  (db as Db)
    .insertInto('report_first_replies')
    .values({ ticket_id: param('ticket_id'), organization_id: param('organization_id'), replied_at: param('replied_at') })
    .onConflict((conflict) => conflict.column('ticket_id').doNothing()),
);

/** Marks the ticket's first public reply by a person: true only for the insert that wins. */
export async function markFirstReply(trx: Transaction<DB>, row: FirstReplyRow): Promise<boolean> {
  const result = await markFirstReplyStatement.execute(trx, row);
  return Number(result.numAffectedRows ?? 0) > 0;
}

const SCHEDULE_COLUMNS = ['team_id', 'timezone', 'common_daily_config', 'common_slots', 'daily_config', 'holidays'] as const;

function selectTeamSchedules(db: Db) {
  return db.selectFrom('team_configurations').select(SCHEDULE_COLUMNS);
}

type TeamScheduleRow = Awaited<ReturnType<ReturnType<typeof selectTeamSchedules>['executeTakeFirstOrThrow']>>;

// Every reply reads its team's: one statement, compiled once, for any count of teams.
const findTeamSchedulesStatement = prepareQuery<{ teamIds: string }, TeamScheduleRow>((db, param) =>
  selectTeamSchedules(db as Db).where(inJsonArray(db as Db, 'team_id', param('teamIds'))),
);

/** The business-hour fields of the teams' configurations (a team without one is on UTC, always closed). */
export async function findTeamSchedules(db: Db, teamIds: readonly string[]): Promise<TeamScheduleRow[]> {
  const teamIdsJson = JSON.stringify([...new Set(teamIds)]);
  return (await findTeamSchedulesStatement.execute(db, { teamIds: teamIdsJson })).rows;
}

/** Whether each status counts as closed, and the ticket's creation. */
export async function findClosedStatuses(db: Db, statusIds: readonly string[]): Promise<Map<string, boolean>> {
  const rows = await db
    .selectFrom('ticket_options')
    .select(['id', 'is_closed'])
    .where('id', 'in', [...new Set(statusIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.is_closed === true || row.is_closed === 1]));
}

export async function findTicketCreatedAt(db: Db, ticketId: string): Promise<string | undefined> {
  const row = await db.selectFrom('tickets').select('created_at').where('id', '=', ticketId).executeTakeFirst();
  return row?.created_at;
}

/** The counts per day (and agent) of the days from `from` through `to`. */
export async function sumDailyCounts(db: Db, scope: ReportScope, from: string, to: string, options: SumOptions = {}) {
  return db
    .selectFrom('report_daily_counts')
    .select((eb) => [
      'day',
      'agent_id',
      eb.fn.sum<number>('created').as('created'),
      eb.fn.sum<number>('closed').as('closed'),
      eb.fn.sum<number>('reopened').as('reopened'),
      eb.fn.sum<number>('public_replies').as('public_replies'),
      eb.fn.sum<number>('backlog_delta').as('backlog_delta'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'agent_id'])
    .where(rowsOfScope(scope, options))
    .execute();
}

/** The backlog at the start of `day`: the sum of every delta before it. */
export async function backlogBefore(db: Db, scope: ReportScope, day: string): Promise<number> {
  const row = await db
    .selectFrom('report_daily_counts')
    .select((eb) => eb.fn.sum<number>('backlog_delta').as('backlog'))
    .where('organization_id', '=', scope.organizationId)
    .where('day', '<', day)
    .where(rowsOfScope(scope))
    .executeTakeFirst();
  return Number(row?.backlog ?? 0);
}

/** The bin counts per day, metric and bin (and agent) of the days from `from` through `to`. */
export async function sumDurationBins(db: Db, scope: ReportScope, from: string, to: string, metrics: readonly DurationMetric[]) {
  return db
    .selectFrom('report_duration_bins')
    .select((eb) => ['day', 'agent_id', 'metric', 'bin', eb.fn.sum<number>('count').as('count')])
    .where('organization_id', '=', scope.organizationId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('metric', 'in', [...metrics])
    .groupBy(['day', 'agent_id', 'metric', 'bin'])
    .where(rowsOfScope(scope))
    .execute();
}

/** The bin counts of one metric per agent and bin over the days from `from` through `to` (the agents report's totals). */
export async function sumDurationBinsPerAgent(db: Db, scope: ReportScope, from: string, to: string, metric: DurationMetric) {
  return db
    .selectFrom('report_duration_bins')
    .select((eb) => ['agent_id', 'bin', eb.fn.sum<number>('count').as('count')])
    .where('organization_id', '=', scope.organizationId)
    .where('metric', '=', metric)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where(rowsOfScope(scope, { perAgent: true }))
    .groupBy(['agent_id', 'bin'])
    .execute();
}
