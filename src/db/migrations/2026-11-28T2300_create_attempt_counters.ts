import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Counters of attempts per key and window (sign-ins, password-reset requests), shared by every
 * process on the database when Redis is not configured. A key is the SHA-256 of what it counts
 * (an address, an email), so the table holds no one's address; rows whose window has ended are
 * deleted by the counting processes, by `window_ends_at`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('attempt_counters')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('window_ends_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('attempt_counters_window_ends_at').on('attempt_counters').column('window_ends_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attempt_counters').execute();
}
