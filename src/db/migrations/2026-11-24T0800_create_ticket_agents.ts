import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Agents on tickets: a team may name an agent-studio agent and how it works its tickets (`off`,
 * `draft`, `auto`). A cursor per organization says how far in the event log new tickets and
 * customer replies have been turned into jobs; UNIQUE (organization_id, event_seq) makes a second
 * process turning the same event into a job insert nothing, so each event is answered once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema.alterTable('team_configurations').addColumn('ai_agent_id', 'text').execute();
  await db.schema
    .alterTable('team_configurations')
    .addColumn('ai_agent_mode', 'text', (col) => col.notNull().defaultTo('off'))
    .execute();

  await db.schema
    .createTable('ticket_agent_cursors')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id'))
    .addColumn('dispatched_seq', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('ticket_agent_jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('event_seq', 'bigint', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.notNull())
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('agent_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', types.timestamp)
    .addColumn('run_id', 'text')
    .addColumn('outcome', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('ticket_agent_jobs_organization_event', ['organization_id', 'event_seq'])
    .execute();
  // The worker's claims: pending jobs, and running ones whose lease ran out.
  await db.schema.createIndex('ticket_agent_jobs_due').on('ticket_agent_jobs').columns(['status', 'locked_until']).execute();
  // A ticket's jobs, newest first.
  await db.schema.createIndex('ticket_agent_jobs_ticket_id').on('ticket_agent_jobs').columns(['ticket_id', 'id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_agent_jobs').execute();
  await db.schema.dropTable('ticket_agent_cursors').execute();
  await db.schema.alterTable('team_configurations').dropColumn('ai_agent_mode').execute();
  await db.schema.alterTable('team_configurations').dropColumn('ai_agent_id').execute();
}
