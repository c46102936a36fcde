import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The AI tokens a help center's messenger spent per day (UTC), for its daily cap: one row per help
 * center and day, grown by one upsert per answer, so every process adds to the same count.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('messenger_token_usage')
    .addColumn('help_center_id', 'text', (col) => col.notNull().references('help_centers.id'))
    // YYYY-MM-DD, UTC.
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('used_tokens', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('messenger_token_usage_pkey', ['help_center_id', 'day'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messenger_token_usage').execute();
}
