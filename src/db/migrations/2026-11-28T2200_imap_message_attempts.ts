import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Attempts at filing each message an IMAP mailbox holds, counted before each attempt and forgotten
 * once the message is filed. A message that keeps failing (one the database refuses, one whose
 * poller stops every time) is set aside after a few attempts instead of holding back every later
 * message of its mailbox. Rows go with their mailbox.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('imap_message_attempts')
    .addColumn('mailbox_id', 'text', (col) => col.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('uid_validity', 'bigint', (col) => col.notNull())
    .addColumn('uid', 'bigint', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('imap_message_attempts_pkey', ['mailbox_id', 'uid_validity', 'uid'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('imap_message_attempts').execute();
}
