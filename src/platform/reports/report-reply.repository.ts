import type { ExpressionBuilder, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AttachedKind } from '../events/event.repository.js';
import { addDailyCounts, addDurationBins, markFirstReply } from './report.repository.js';
import type { ReportDailyCountTable, ReportDurationBinTable, ReportFirstReplyTable } from './report.table.js';

/**
 * A public reply's counts as writes attached to its insert (`AttachedKind`): its daily counts, and,
 * if it is its ticket's first, the mark that says so and its first-reply times, which count only
 * when the mark is the insert that wins. On PostgreSQL part of the reply's one statement, so a
 * reply holds the organization's hot report rows for that statement alone; on SQLite statements of
 * its transaction.
 */
export interface ReplyCountRows {
  /** Sorted by key (every writer takes these rows in one order). */
  counts: ReportDailyCountTable[];
  /** Absent when the ticket had its first reply already. */
  firstReply: { mark: ReportFirstReplyTable; bins: ReportDurationBinTable[] } | null;
}

const COUNTS = ['created', 'closed', 'reopened', 'public_replies', 'backlog_delta'] as const;
const KEY = ['organization_id', 'team_id', 'agent_id', 'day'] as const;

/** Key columns in the order the writers sort them (`PendingCounts`: code points, as JavaScript compares). */
const inKeyOrder = (alias: string, columns: readonly string[]) =>
  columns.map((column) => `${alias}.${column} collate "C"`).join(', ');

function clauses(first: number): string {
  const [counts, firsts, bins] = [first, first + 1, first + 2].map((index) => `cast($${index} as jsonb)`);
  const keyOf = (alias: string) => KEY.map((column) => `${alias}.${column}`).join(', ');
  const binKey = `${keyOf('b')}, b.metric, b.bin`;
  return [
    `reply_counts as (insert into report_daily_counts (${KEY.join(', ')}, ${COUNTS.join(', ')}) ` +
      `select ${keyOf('r')}, ${COUNTS.map((name) => `sum(r.${name})`).join(', ')} ` +
      `from jsonb_to_recordset(${counts}) as r(batch_index int, organization_id text, team_id text, agent_id text, day text, ` +
      `${COUNTS.map((name) => `${name} int`).join(', ')}) ` +
      `join written using (batch_index) cross join numbered group by ${keyOf('r')} order by ${inKeyOrder('r', KEY.slice(1))} ` +
      `on conflict (${KEY.join(', ')}) do update set ` +
      `${COUNTS.map((name) => `${name} = report_daily_counts.${name} + excluded.${name}`).join(', ')})`,
    // One candidate a ticket (two replies to one ticket in a batch: the first written).
    `reply_firsts as (select distinct on (f.ticket_id) f.batch_index, f.ticket_id, f.organization_id, f.replied_at ` +
      `from jsonb_to_recordset(${firsts}) as f(batch_index int, ticket_id text, organization_id text, replied_at timestamptz) ` +
      'join written using (batch_index) cross join numbered order by f.ticket_id, f.batch_index)',
    'reply_marked as (insert into report_first_replies (ticket_id, organization_id, replied_at) ' +
      'select ticket_id, organization_id, replied_at from reply_firsts on conflict (ticket_id) do nothing returning ticket_id)',
    `reply_bins as (insert into report_duration_bins (${KEY.join(', ')}, metric, bin, count) ` +
      `select ${binKey}, sum(b.count) ` +
      `from jsonb_to_recordset(${bins}) as b(batch_index int, organization_id text, team_id text, agent_id text, day text, ` +
      'metric text, bin int, count int) ' +
      `join reply_firsts using (batch_index) join reply_marked using (ticket_id) group by ${binKey} ` +
      `order by ${inKeyOrder('b', [...KEY.slice(1), 'metric'])}, b.bin ` +
      `on conflict (${KEY.join(', ')}, metric, bin) do update set count = report_duration_bins.count + excluded.count)`,
  ].join(', ');
}

export const REPLY_COUNTS: AttachedKind<ReplyCountRows> = {
  name: 'reply_counts',
  postgresClauses: clauses,
  parameterCount: 3,
  postgresParameters(batch) {
    const tagged = <Row>(pick: (rows: ReplyCountRows) => readonly Row[]) =>
      JSON.stringify(batch.flatMap(({ batchIndex, rows }) => pick(rows).map((row) => ({ batch_index: batchIndex, ...row }))));
    return [
      tagged((rows) => rows.counts),
      tagged((rows) => (rows.firstReply ? [rows.firstReply.mark] : [])),
      tagged((rows) => rows.firstReply?.bins ?? []),
    ];
  },
  async write(trx: Transaction<DB>, rows: ReplyCountRows) {
    if (rows.firstReply && (await markFirstReply(trx, rows.firstReply.mark))) {
      await addDurationBins(trx, rows.firstReply.bins);
    }
    await addDailyCounts(trx, rows.counts);
  },
};

/** Whether the ticket of the enclosing query had its first public reply, for a read that brings it along. */
export function firstReplyOfEnclosingTicket(eb: ExpressionBuilder<DB, 'tickets'>) {
  return eb
    .selectFrom('report_first_replies')
    .select('report_first_replies.ticket_id')
    .whereRef('report_first_replies.ticket_id', '=', 'tickets.id');
}
