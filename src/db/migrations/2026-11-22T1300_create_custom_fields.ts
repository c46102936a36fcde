import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createTable('custom_fields')
    .addColumn('uid', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    // Null: an organization-wide field; otherwise the field belongs to one team.
    .addColumn('team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('field_type', 'text', (col) => col.notNull())
    .addColumn('options', types.json, (col) => col.notNull())
    .addColumn('metadata', types.json, (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('is_active', types.boolean, (col) => col.notNull())
    .addColumn('auto_add_to_all_forms', types.boolean, (col) => col.notNull())
    .addColumn('hint_text', 'text')
    .addColumn('placeholder_text', 'text')
    .addColumn('default_value', 'text')
    .addColumn('regex_for_validation', 'text')
    .addColumn('mandatory_on_creation', types.boolean, (col) => col.notNull())
    .addColumn('mandatory_on_close', types.boolean, (col) => col.notNull())
    .addColumn('visible_to_customer', types.boolean, (col) => col.notNull())
    .addColumn('editable_by_customer', types.boolean, (col) => col.notNull())
    .addColumn('lookup', 'text')
    // Optimistic concurrency: starts at 1, +1 on every change.
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  // Slugs are never reused, not even after a soft delete: the index covers deleted rows too.
  await sql`create unique index custom_fields_organization_source_slug on custom_fields (organization_id, source, slug)`.execute(
    db,
  );
  // Listing order within an organization: creation time, then uid.
  await db.schema
    .createIndex('custom_fields_organization_created')
    .on('custom_fields')
    .columns(['organization_id', 'created_at', 'uid'])
    .execute();
  await db.schema.createIndex('custom_fields_team').on('custom_fields').column('team_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_fields').execute();
}
