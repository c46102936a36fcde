import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The Slack channel: the app installed per organization (`slack_installations`), and the Events
 * API deliveries kept once by Slack's `event_id` for the worker to act on (`slack_events`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('slack_installations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().unique().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().unique())
    .addColumn('team_name', 'text', (col) => col.notNull())
    .addColumn('enterprise_id', 'text')
    .addColumn('app_id', 'text', (col) => col.notNull())
    .addColumn('bot_user_id', 'text', (col) => col.notNull())
    .addColumn('bot_token_encrypted', 'text', (col) => col.notNull())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('installed_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('revoked_reason', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('slack_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('channel_id', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('event_time', types.timestamp, (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', types.timestamp)
    .addColumn('next_attempt_at', types.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('received_at', types.timestamp, (col) => col.notNull())
    .addColumn('processed_at', types.timestamp)
    .execute();
  // The worker's queue: what is still to do, oldest first.
  await db.schema
    .createIndex('slack_events_unfinished')
    .on('slack_events')
    .columns(['event_time', 'event_id'])
    .where(sql<boolean>`status in ('pending', 'processing')`)
    .execute();
  await db.schema
    .createIndex('slack_events_organization')
    .on('slack_events')
    .columns(['organization_id', 'received_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slack_events').execute();
  await db.schema.dropTable('slack_installations').execute();
}
