import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * A messenger conversation handed to a person: the chat ticket made from it, one per conversation
 * (the primary key makes two concurrent "Talk to a person" one ticket), and what the visitor left
 * for replies while away. Beside it, the platform's side of a chat ticket: whether its visitor has
 * a panel open and is typing, as the console shows it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('messenger_handoffs')
    .addColumn('thread_id', 'text', (col) => col.primaryKey().references('chat_threads.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    .addColumn('visitor_id', 'text', (col) => col.notNull().references('messenger_visitors.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().unique().references('tickets.id'))
    // visitor or assistant
    .addColumn('requested_by', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('chat_ticket_visitors')
    .addColumn('ticket_id', 'text', (col) => col.primaryKey().references('tickets.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('online', types.boolean, (col) => col.notNull())
    .addColumn('last_seen_at', types.timestamp, (col) => col.notNull())
    .addColumn('typing_at', types.timestamp)
    .execute();
  // The sweep of visitors gone quiet reads those still online, oldest seen first.
  await db.schema
    .createIndex('chat_ticket_visitors_online')
    .on('chat_ticket_visitors')
    .columns(['online', 'last_seen_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_ticket_visitors').execute();
  await db.schema.dropTable('messenger_handoffs').execute();
}
