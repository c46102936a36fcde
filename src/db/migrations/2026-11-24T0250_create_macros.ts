import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Canned replies (macros): a markdown reply with placeholders and the changes to make to the
 * ticket with it, personal (`team_id` null) or shared with a team. Listed by name within the
 * organization; the index holds what the list filters on (scope, owner), so a page is one range.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('macros')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('comment_visibility', 'text', (col) => col.notNull())
    .addColumn('send_email', types.boolean, (col) => col.notNull())
    .addColumn('actions', types.json, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addCheckConstraint('macros_comment_visibility', sql`comment_visibility in ('public', 'private')`)
    .execute();
  await db.schema
    .createIndex('macros_organization_name')
    .on('macros')
    .columns(['organization_id', 'name', 'id', 'team_id', 'owner_id'])
    .execute();
  await db.schema.createIndex('macros_team').on('macros').column('team_id').execute();
  await db.schema.createIndex('macros_owner').on('macros').column('owner_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('macros').execute();
}
