import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The reports' aggregates (`platform/reports/report.table.ts`): daily counts and duration
 * histograms per organization, team, agent and local day, kept by upserts on their primary keys,
 * and the tickets that had their first public reply. Reports read a range of days of an
 * organization (primary key prefix, then day) and the backlog's prefix sum before it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('report_daily_counts')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('created', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('closed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('reopened', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('public_replies', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('backlog_delta', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('report_daily_counts_pk', ['organization_id', 'team_id', 'agent_id', 'day'])
    .execute();
  await db.schema
    .createIndex('report_daily_counts_organization_day')
    .on('report_daily_counts')
    .columns(['organization_id', 'day'])
    .execute();
  await db.schema
    .createTable('report_duration_bins')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('metric', 'text', (col) => col.notNull())
    .addColumn('bin', 'integer', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('report_duration_bins_pk', ['organization_id', 'team_id', 'agent_id', 'day', 'metric', 'bin'])
    .execute();
  await db.schema
    .createIndex('report_duration_bins_organization_day')
    .on('report_duration_bins')
    .columns(['organization_id', 'day', 'metric'])
    .execute();
  await db.schema
    .createTable('report_first_replies')
    .addColumn('ticket_id', 'text', (col) => col.primaryKey().references('tickets.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('replied_at', types.timestamp, (col) => col.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_first_replies').execute();
  await db.schema.dropTable('report_duration_bins').execute();
  await db.schema.dropTable('report_daily_counts').execute();
}
