import type { Kysely } from 'kysely';

/**
 * An API key gets a name its owner gives it ("Zapier", "nightly export"), so a list of keys says
 * which integration each one is. Keys issued before have none.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('name').execute();
}
