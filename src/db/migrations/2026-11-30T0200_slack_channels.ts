import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Slack channels at work: each channel's settings (`slack_channels`), the request detection
 * decisions (`slack_requests`), the tickets made from Slack with their thread and triage post
 * (`slack_ticket_threads`), and the Slack messages that are part of a ticket (`slack_message_links`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('slack_channels')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('ignored'))
    .addColumn('account_id', 'text', (col) => col.references('accounts.id'))
    .addColumn('team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('detection_mode', 'text', (col) => col.notNull().defaultTo('rules'))
    .addColumn('group_window_seconds', 'integer', (col) => col.notNull().defaultTo(120))
    .addColumn('detection_rules', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('connected'))
    .addColumn('disconnected_reason', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('slack_channels_organization_channel', ['organization_id', 'channel_id'])
    .execute();

  await db.schema
    .createTable('slack_requests')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('slack_user_id', 'text', (col) => col.notNull())
    .addColumn('first_ts', 'text', (col) => col.notNull())
    .addColumn('last_ts', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('is_request', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.references('tickets.id'))
    .addColumn('grouping_until', types.timestamp, (col) => col.notNull())
    .addColumn('mark', 'text')
    .addColumn('marked_by', 'text', (col) => col.references('users.id'))
    .addColumn('marked_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('slack_requests_first_message', ['organization_id', 'channel_id', 'first_ts'])
    .execute();
  // The decisions list, newest first; and the open group of one person in one channel.
  await db.schema
    .createIndex('slack_requests_organization_created')
    .on('slack_requests')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('slack_requests_open_group')
    .on('slack_requests')
    .columns(['organization_id', 'channel_id', 'slack_user_id', 'grouping_until'])
    .execute();

  await db.schema
    .createTable('slack_ticket_threads')
    .addColumn('ticket_id', 'text', (col) => col.primaryKey().references('tickets.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('thread_ts', 'text', (col) => col.notNull())
    .addColumn('triage_channel_id', 'text')
    .addColumn('triage_ts', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('slack_ticket_threads_thread', ['organization_id', 'channel_id', 'thread_ts'])
    .execute();
  await db.schema
    .createIndex('slack_ticket_threads_triage')
    .on('slack_ticket_threads')
    .columns(['organization_id', 'triage_channel_id', 'triage_ts'])
    .execute();

  await db.schema
    .createTable('slack_message_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('message_ts', 'text', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('comment_id', 'text')
    .addColumn('direction', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('slack_message_links_message', ['organization_id', 'channel_id', 'message_ts'])
    .execute();
  await db.schema
    .createIndex('slack_message_links_comment')
    .on('slack_message_links')
    .columns(['comment_id'])
    .where(sql<boolean>`comment_id is not null`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slack_message_links').execute();
  await db.schema.dropTable('slack_ticket_threads').execute();
  await db.schema.dropTable('slack_requests').execute();
  await db.schema.dropTable('slack_channels').execute();
}
