import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * What receiving mail needs beyond the foundation's tables. `created_by_id`: the admin who set the
 * mailbox up, recorded as the creator of the tickets and the uploader of the attachments its mail
 * brings (both columns name a user; the timeline and events name the customer who wrote).
 * `imap_next_poll_at` and `imap_failures`: when an IMAP mailbox is due again, later after each
 * failed poll in a row, so a broken server is not hammered.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .alterTable('mailboxes')
    .addColumn('created_by_id', 'text', (col) => col.references('users.id'))
    .execute();
  await db.schema.alterTable('mailboxes').addColumn('imap_next_poll_at', types.timestamp).execute();
  await db.schema
    .alterTable('mailboxes')
    .addColumn('imap_failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // The pollers' claim reads the IMAP mailboxes that are due.
  await db.schema
    .createIndex('mailboxes_imap_due')
    .on('mailboxes')
    .column('imap_next_poll_at')
    .where(sql.ref('delivery'), '=', sql.lit('imap'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mailboxes_imap_due').execute();
  for (const column of ['imap_failures', 'imap_next_poll_at', 'created_by_id']) {
    await db.schema.alterTable('mailboxes').dropColumn(column).execute();
  }
}
