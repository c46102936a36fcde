import { type Kysely, sql } from 'kysely';

/**
 * The reports' rollups (`platform/reports/report.table.ts`): every aggregate row is also counted in
 * its team's row for every agent (`agent_id = '*'`) and in the organization's (`team_id = '*'`),
 * which reports of the organization or a team read instead of every agent's rows. This adds the
 * rollups of the rows counted before, and the indexes of the reports that read the agents' rows:
 * one agent's (by agent and day), and the agents report's bins (covering, by metric and day, so a
 * range of days is read from the index alone). That index starts with the columns of the one it
 * replaces (organization, day, metric), which no report reads any more.
 */
const TABLES = [
  { table: 'report_daily_counts', keys: [], sums: ['created', 'closed', 'reopened', 'public_replies', 'backlog_delta'] },
  { table: 'report_duration_bins', keys: ['metric', 'bin'], sums: ['count'] },
  { table: 'report_sla_counts', keys: ['policy_id', 'metric'], sums: ['met', 'breached'] },
  { table: 'report_satisfaction_counts', keys: [], sums: ['sent', 'responses', 'good', 'bad'] },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, keys, sums } of TABLES) {
    const keyColumns = keys.map((key) => `, ${key}`).join('');
    const columns = `organization_id, team_id, agent_id, day${keyColumns}, ${sums.join(', ')}`;
    const totals = sums.map((name) => `sum(${name})`).join(', ');
    const own = `team_id <> '*' and agent_id <> '*'`;
    await sql
      .raw(
        `insert into ${table} (${columns}) select organization_id, team_id, '*', day${keyColumns}, ${totals} from ${table} ` +
          `where ${own} group by organization_id, team_id, day${keyColumns}`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into ${table} (${columns}) select organization_id, '*', '*', day${keyColumns}, ${totals} from ${table} ` +
          `where ${own} group by organization_id, day${keyColumns}`,
      )
      .execute(db);
    await db.schema.createIndex(`${table}_agent_day`).on(table).columns(['organization_id', 'agent_id', 'day']).execute();
  }
  await db.schema.dropIndex('report_duration_bins_organization_day').execute();
  await db.schema
    .createIndex('report_duration_bins_metric_day')
    .on('report_duration_bins')
    .columns(['organization_id', 'metric', 'day', 'agent_id', 'team_id', 'bin', 'count'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('report_duration_bins_metric_day').execute();
  await db.schema
    .createIndex('report_duration_bins_organization_day')
    .on('report_duration_bins')
    .columns(['organization_id', 'day', 'metric'])
    .execute();
  for (const { table } of TABLES) {
    await db.schema.dropIndex(`${table}_agent_day`).execute();
    await db.deleteFrom(table).where('agent_id', '=', '*').execute();
  }
}
