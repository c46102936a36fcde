import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Whether an agent's answer helped, as the one who asked says (a messenger visitor's "That
 * helped"): one row per answer, a later rating replacing the earlier, so what the agents could
 * not answer can be found.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('chat_message_feedback')
    .addColumn('message_id', 'text', (col) => col.primaryKey().references('chat_messages.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('thread_id', 'text', (col) => col.notNull().references('chat_threads.id'))
    // positive or negative
    .addColumn('feedback_type', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_message_feedback_thread').on('chat_message_feedback').column('thread_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_message_feedback').execute();
}
