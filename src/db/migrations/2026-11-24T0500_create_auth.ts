import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * People sign in: a user's password (an scrypt hash that names its own parameters) and whether an
 * admin disabled them; browser sessions, kept server-side and found by the SHA-256 of the cookie's
 * token; and the single-use tokens of invitation and password-reset links, likewise stored hashed.
 * Sign-in looks a person up by email across organizations, hence the index on lower(email).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_changed_at', types.timestamp).execute();
  await db.schema.alterTable('users').addColumn('disabled_at', types.timestamp).execute();
  await sql`create index users_email on users (lower(email))`.execute(db);

  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('last_seen_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .execute();
  // A user's sessions, newest first (the list, sign-out everywhere, pruning).
  await db.schema
    .createIndex('user_sessions_user_created')
    .on('user_sessions')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('user_auth_tokens')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_by_user_id', 'text', (col) => col.references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('used_at', types.timestamp)
    .execute();
  await db.schema.createIndex('user_auth_tokens_user_id').on('user_auth_tokens').columns(['user_id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_auth_tokens').execute();
  await db.schema.dropTable('user_sessions').execute();
  await db.schema.dropIndex('users_email').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('users').dropColumn('password_changed_at').execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
}
