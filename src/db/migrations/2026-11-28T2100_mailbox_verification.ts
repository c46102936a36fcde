import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Mailbox addresses are verified before they receive, send or count as Switchboard's own.
 *
 * `mailboxes.verified_at` and `verification_method` (`link`, `dns`, or `existing` for the
 * mailboxes this migration found, which keep working as they did). An address is unique among
 * verified mailboxes only (the receivers route by it), and once per organization: other
 * organizations' unverified claims of an address never block the one that proves it.
 *
 * `mailbox_verification_links`: the emailed links, stored as the SHA-256 of their token and bound
 * to the address they were sent to. The mailbox may go (its link then opens nothing); the row stays
 * until it expires, so links sent to an address are counted however often its mailbox is made again.
 *
 * `mailbox_domains`: each organization's token for a domain, which a DNS TXT record publishes to
 * verify every mailbox of the organization on that domain.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema.alterTable('mailboxes').addColumn('verified_at', types.timestamp).execute();
  await db.schema.alterTable('mailboxes').addColumn('verification_method', 'text').execute();
  await db
    .updateTable('mailboxes')
    .set({ verified_at: sql.ref('created_at'), verification_method: 'existing' })
    .execute();
  await db.schema.dropIndex('mailboxes_address').execute();
  await db.schema
    .createIndex('mailboxes_verified_address')
    .on('mailboxes')
    .column('address')
    .unique()
    .where(sql.ref('verified_at'), 'is not', null)
    .execute();
  await db.schema.dropIndex('mailboxes_organization').execute();
  await db.schema
    .createIndex('mailboxes_organization_address')
    .on('mailboxes')
    .columns(['organization_id', 'address'])
    .unique()
    .execute();

  await db.schema
    .createTable('mailbox_verification_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('mailbox_id', 'text', (col) => col.references('mailboxes.id').onDelete('set null'))
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull())
    .addColumn('created_by_id', 'text', (col) => col.references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('used_at', types.timestamp)
    .execute();
  await db.schema
    .createIndex('mailbox_verification_links_token')
    .on('mailbox_verification_links')
    .column('token_hash')
    .unique()
    .execute();
  // Links sent to an address lately, counted before another is sent.
  await db.schema
    .createIndex('mailbox_verification_links_address')
    .on('mailbox_verification_links')
    .columns(['organization_id', 'address', 'created_at'])
    .execute();
  await db.schema
    .createIndex('mailbox_verification_links_mailbox')
    .on('mailbox_verification_links')
    .column('mailbox_id')
    .execute();

  await db.schema
    .createTable('mailbox_domains')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('domain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('verified_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('mailbox_domains_pkey', ['organization_id', 'domain'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailbox_domains').execute();
  await db.schema.dropTable('mailbox_verification_links').execute();
  await db.schema.dropIndex('mailboxes_organization_address').execute();
  await db.schema.createIndex('mailboxes_organization').on('mailboxes').columns(['organization_id', 'address']).execute();
  await db.schema.dropIndex('mailboxes_verified_address').execute();
  await db.schema.createIndex('mailboxes_address').on('mailboxes').column('address').unique().execute();
  await db.schema.alterTable('mailboxes').dropColumn('verification_method').execute();
  await db.schema.alterTable('mailboxes').dropColumn('verified_at').execute();
}
