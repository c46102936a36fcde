import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  // Values of the organization's account attributes (account_status, note_type, …).
  await db.schema
    .createTable('account_attribute_values')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('attribute', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('icon', 'text')
    .addColumn('color', 'text')
    .addColumn('is_default', types.boolean, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  // A value once per attribute, case-insensitively; a deleted value frees its name.
  await sql`create unique index account_attribute_values_value on account_attribute_values (organization_id, attribute, lower(value)) where deleted_at is null`.execute(
    db,
  );
  // At most one default per attribute, even when two requests change it at once.
  await sql`create unique index account_attribute_values_default on account_attribute_values (organization_id, attribute) where is_default = ${sql.lit(true)} and deleted_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('source', 'text')
    .addColumn('logo', 'text')
    .addColumn('primary_domain', 'text', (col) => col.notNull())
    .addColumn('secondary_domain', 'text')
    .addColumn('website', 'text')
    .addColumn('status_id', 'text', (col) => col.references('account_attribute_values.id'))
    .addColumn('classification_id', 'text', (col) => col.references('account_attribute_values.id'))
    .addColumn('health_id', 'text', (col) => col.references('account_attribute_values.id'))
    .addColumn('industry_id', 'text', (col) => col.references('account_attribute_values.id'))
    .addColumn('account_owner_id', 'text', (col) => col.references('users.id'))
    .addColumn('annual_revenue', 'double precision')
    .addColumn('employees', 'integer')
    .addColumn('billing_address', 'text')
    .addColumn('shipping_address', 'text')
    .addColumn('metadata', types.json)
    .addColumn('custom_field_values', types.json, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  // primaryDomain is unique per organization among live accounts (stored lower-case).
  await sql`create unique index accounts_organization_primary_domain on accounts (organization_id, primary_domain) where deleted_at is null`.execute(
    db,
  );
  await db.schema
    .createIndex('accounts_organization_created')
    .on('accounts')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // Which contacts belong to which accounts; `PUT /accounts/contacts/{id}` replaces a contact's rows.
  await db.schema
    .createTable('account_contacts')
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('customer_contact_id', 'text', (col) => col.notNull().references('customer_contacts.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('account_contacts_pk', ['account_id', 'customer_contact_id'])
    .execute();
  await db.schema.createIndex('account_contacts_contact').on('account_contacts').column('customer_contact_id').execute();

  await db.schema
    .createTable('account_notes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('type_id', 'text', (col) => col.references('account_attribute_values.id'))
    .addColumn('visibility', 'text', (col) => col.notNull())
    .addColumn('author_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('metadata', types.json)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  await db.schema
    .createIndex('account_notes_account_created')
    .on('account_notes')
    .columns(['account_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('account_note_attachments')
    .addColumn('note_id', 'text', (col) => col.notNull().references('account_notes.id'))
    .addColumn('attachment_id', 'text', (col) => col.notNull().references('attachments.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('account_note_attachments_pk', ['note_id', 'attachment_id'])
    .execute();

  // A link attachment (a note's attachmentUrls): recorded, never fetched; downloads redirect to it.
  await db.schema.alterTable('attachments').addColumn('external_url', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('attachments').dropColumn('external_url').execute();
  for (const table of ['account_note_attachments', 'account_notes', 'account_contacts', 'accounts', 'account_attribute_values']) {
    await db.schema.dropTable(table).execute();
  }
}
