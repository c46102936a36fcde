import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * A person's reply on a messenger chat ticket, waiting to be emailed if the visitor is away: two
 * minutes after it, the reply is emailed when no panel of the visitor was open since, else dropped
 * as seen. One row per reply; its status moves once, by a conditional update, in any process.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('chat_reply_emails')
    .addColumn('comment_id', 'text', (col) => col.primaryKey().references('ticket_comments.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    // pending, emailed, seen, no_address or gone (the reply or its ticket deleted)
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('due_at', types.timestamp, (col) => col.notNull())
    .addColumn('decided_at', types.timestamp)
    .execute();
  await db.schema.createIndex('chat_reply_emails_due').on('chat_reply_emails').columns(['status', 'due_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_reply_emails').execute();
}
