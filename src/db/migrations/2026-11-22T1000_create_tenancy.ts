import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('user_type', 'text', (col) => col.notNull())
    .addColumn('avatar_url', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  await sql`create unique index users_organization_email on users (organization_id, lower(email))`.execute(db);

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('prefix', 'text', (col) => col.notNull().unique())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('last_used_at', types.timestamp)
    .addColumn('revoked_at', types.timestamp)
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('users').execute();
  await db.schema.dropTable('organizations').execute();
  await db.schema.dropTable('instance_settings').execute();
}
