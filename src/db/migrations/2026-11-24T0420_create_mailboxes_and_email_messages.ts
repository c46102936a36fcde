import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The email channel. `mailboxes`: an organization's support addresses, each delivering new tickets
 * to a team, received by the built-in SMTP receiver or fetched from an IMAP server. An address
 * belongs to one mailbox across all organizations (the receiver routes mail by recipient alone), and
 * an organization has at most one default mailbox.
 *
 * `email_messages`: every message of a ticket's thread, received or sent, with the headers that
 * thread it (`message_id`, `in_reply_to`, `references_ids`) and the original bytes. A message id is
 * stored once per organization and direction: a sender's retry after the commit is the same message,
 * and a reply finds its ticket by the ids it cites.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('mailboxes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('delivery', 'text', (col) => col.notNull())
    .addColumn('is_default', types.boolean, (col) => col.notNull().defaultTo(false))
    .addColumn('imap_host', 'text')
    .addColumn('imap_port', 'integer')
    .addColumn('imap_tls', types.boolean)
    .addColumn('imap_user', 'text')
    .addColumn('imap_password_encrypted', 'text')
    .addColumn('imap_folder', 'text')
    .addColumn('imap_processed_folder', 'text')
    .addColumn('imap_uid_validity', 'bigint')
    .addColumn('imap_last_uid', 'bigint')
    .addColumn('imap_locked_until', types.timestamp)
    .addColumn('imap_last_polled_at', types.timestamp)
    .addColumn('imap_last_error', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addCheckConstraint('mailboxes_delivery', sql`delivery in ('smtp', 'imap')`)
    .execute();
  await db.schema.createIndex('mailboxes_address').on('mailboxes').column('address').unique().execute();
  await db.schema
    .createIndex('mailboxes_one_default')
    .on('mailboxes')
    .column('organization_id')
    .unique()
    .where(sql.ref('is_default'), '=', sql`true`)
    .execute();
  await db.schema.createIndex('mailboxes_organization').on('mailboxes').columns(['organization_id', 'address']).execute();
  await db.schema.createIndex('mailboxes_team').on('mailboxes').column('team_id').execute();

  await db.schema
    .createTable('email_messages')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('mailbox_id', 'text', (col) => col.references('mailboxes.id').onDelete('set null'))
    .addColumn('ticket_id', 'text', (col) => col.references('tickets.id'))
    .addColumn('comment_id', 'text', (col) => col.references('ticket_comments.id'))
    .addColumn('outbox_id', 'text', (col) => col.references('email_outbox.id'))
    .addColumn('direction', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text', (col) => col.notNull())
    .addColumn('in_reply_to', 'text')
    .addColumn('references_ids', types.json, (col) => col.notNull())
    .addColumn('from_address', 'text', (col) => col.notNull())
    .addColumn('from_name', 'text')
    .addColumn('to_addresses', types.json, (col) => col.notNull())
    .addColumn('cc_addresses', types.json, (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('headers', types.json, (col) => col.notNull())
    .addColumn('raw', types.binary)
    .addColumn('raw_size', 'integer', (col) => col.notNull())
    .addColumn('disposition', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addCheckConstraint('email_messages_direction', sql`direction in ('inbound', 'outbound')`)
    .execute();
  await db.schema
    .createIndex('email_messages_message_id')
    .on('email_messages')
    .columns(['organization_id', 'direction', 'message_id'])
    .unique()
    .execute();
  // A reply names its parent by Message-ID without knowing the organization or direction.
  await db.schema.createIndex('email_messages_by_message_id').on('email_messages').column('message_id').execute();
  await db.schema.createIndex('email_messages_ticket').on('email_messages').columns(['ticket_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('email_messages_outbox').on('email_messages').column('outbox_id').execute();
  await db.schema.createIndex('email_messages_comment').on('email_messages').column('comment_id').execute();
  // The per-sender flood limit counts a sender's recent messages.
  await db.schema
    .createIndex('email_messages_sender')
    .on('email_messages')
    .columns(['organization_id', 'from_address', 'created_at'])
    .execute();
  await db.schema.createIndex('email_messages_mailbox').on('email_messages').columns(['mailbox_id', 'created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_messages').execute();
  await db.schema.dropTable('mailboxes').execute();
}
