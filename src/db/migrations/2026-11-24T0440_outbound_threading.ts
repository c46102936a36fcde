import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Outbound threading. A ticket email carries what makes it part of a thread, fixed when it is
 * queued and the same on every delivery attempt: the mailbox it is sent from, its `Reply-To`, and
 * the `In-Reply-To`/`References` it cites (its `Message-ID` already has a column).
 *
 * `email_messages.thread` keeps the conversations of one ticket apart: `customer`, the requestor's
 * (every message received, every email to the requestor), or `agent:<user id>`, the notifications
 * to one agent, so an internal notification is never cited in the customer's mail. Rows written
 * without it are the customer's.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema.alterTable('email_outbox').addColumn('from_name', 'text').execute();
  await db.schema.alterTable('email_outbox').addColumn('from_address', 'text').execute();
  await db.schema.alterTable('email_outbox').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('email_outbox').addColumn('in_reply_to', 'text').execute();
  await db.schema.alterTable('email_outbox').addColumn('references_ids', types.json).execute();
  await db.schema
    .alterTable('email_messages')
    .addColumn('thread', 'text', (col) => col.notNull().defaultTo('customer'))
    .execute();
  // A thread's first and latest messages, read each time a ticket email is queued.
  await db.schema
    .createIndex('email_messages_ticket_thread')
    .on('email_messages')
    .columns(['ticket_id', 'thread', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('email_messages_ticket_thread').execute();
  await db.schema.alterTable('email_messages').dropColumn('thread').execute();
  for (const column of ['references_ids', 'in_reply_to', 'reply_to', 'from_address', 'from_name']) {
    await db.schema.alterTable('email_outbox').dropColumn(column).execute();
  }
}
