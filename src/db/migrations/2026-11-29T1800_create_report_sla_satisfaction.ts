import type { Kysely } from 'kysely';

/**
 * The SLA and satisfaction reports' aggregates (`platform/reports/report.table.ts`): counts per
 * organization, team, agent and local day (SLA also per policy and metric), kept by upserts on
 * their primary keys, and each survey's first response (where a changed rating moves its count).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_sla_counts')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('policy_id', 'text', (col) => col.notNull())
    .addColumn('metric', 'text', (col) => col.notNull())
    .addColumn('met', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('breached', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('report_sla_counts_pk', ['organization_id', 'team_id', 'agent_id', 'day', 'policy_id', 'metric'])
    .execute();
  await db.schema
    .createIndex('report_sla_counts_organization_day')
    .on('report_sla_counts')
    .columns(['organization_id', 'day'])
    .execute();
  await db.schema
    .createTable('report_satisfaction_counts')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('sent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('responses', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('good', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('bad', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('report_satisfaction_counts_pk', ['organization_id', 'team_id', 'agent_id', 'day'])
    .execute();
  await db.schema
    .createIndex('report_satisfaction_counts_organization_day')
    .on('report_satisfaction_counts')
    .columns(['organization_id', 'day'])
    .execute();
  await db.schema
    .createTable('report_survey_responses')
    .addColumn('survey_id', 'text', (col) => col.primaryKey().references('satisfaction_surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('rating', 'text', (col) => col.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_survey_responses').execute();
  await db.schema.dropTable('report_satisfaction_counts').execute();
  await db.schema.dropTable('report_sla_counts').execute();
}
