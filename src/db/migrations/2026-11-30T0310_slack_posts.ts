import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Agents' replies on their way to a Slack thread (`slack_posts`, one per comment), and each
 * organization's place in its event log for the triage posts (`slack_triage_cursors`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('slack_posts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('comment_id', 'text', (col) => col.notNull().unique())
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('thread_ts', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('username', 'text')
    .addColumn('icon_url', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', types.timestamp)
    .addColumn('locked_until', types.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('posted_ts', 'text')
    .addColumn('posted_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  // The worker's due posts; one ticket's earlier unfinished posts.
  await db.schema.createIndex('slack_posts_due').on('slack_posts').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('slack_posts_ticket').on('slack_posts').columns(['ticket_id', 'id']).execute();

  await db.schema
    .createTable('slack_triage_cursors')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id'))
    .addColumn('posted_seq', 'bigint', (col) => col.notNull().defaultTo(sql`0`))
    .addColumn('locked_until', types.timestamp)
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slack_triage_cursors').execute();
  await db.schema.dropTable('slack_posts').execute();
}
