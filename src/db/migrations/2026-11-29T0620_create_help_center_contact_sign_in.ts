import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Customer contacts sign in to a help center with an emailed link: the link's token and the
 * session's token are kept only as their SHA-256 (the primary keys, so each lookup is one index
 * probe). A link is used up by one conditional UPDATE of its row; a session ends by `ended_at`.
 * `expires_at` is indexed on both, for deleting the ones that ended.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('help_center_sign_in_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    .addColumn('contact_id', 'text', (col) => col.notNull().references('customer_contacts.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('used_at', types.timestamp)
    .execute();
  await db.schema
    .createIndex('help_center_sign_in_links_expires_at')
    .on('help_center_sign_in_links')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('help_center_contact_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    .addColumn('contact_id', 'text', (col) => col.notNull().references('customer_contacts.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('last_seen_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('ended_at', types.timestamp)
    .execute();
  // A contact's sessions: to end them all when the contact goes.
  await db.schema
    .createIndex('help_center_contact_sessions_contact')
    .on('help_center_contact_sessions')
    .column('contact_id')
    .execute();
  await db.schema
    .createIndex('help_center_contact_sessions_expires_at')
    .on('help_center_contact_sessions')
    .column('expires_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('help_center_contact_sessions').execute();
  await db.schema.dropTable('help_center_sign_in_links').execute();
}
