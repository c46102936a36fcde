import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The messenger's visitors: one row per visitor token, scoped to one help center. The token is
 * kept only as its SHA-256 (unique, so a lookup is one index probe). A verified visitor names the
 * customer contact it was linked to and the host's own id for it (`external_subject`, the JWT's
 * `sub`); an anonymous one has neither.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('messenger_visitors')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('contact_id', 'text', (col) => col.references('customer_contacts.id'))
    .addColumn('external_subject', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('last_seen_at', types.timestamp, (col) => col.notNull())
    .execute();
  // A help center's visitors, and a contact's (their earlier conversations; removed with the contact).
  await db.schema.createIndex('messenger_visitors_help_center').on('messenger_visitors').column('help_center_id').execute();
  await db.schema.createIndex('messenger_visitors_contact').on('messenger_visitors').column('contact_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messenger_visitors').execute();
}
