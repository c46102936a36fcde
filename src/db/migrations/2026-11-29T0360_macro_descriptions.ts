import type { Kysely } from 'kysely';

/**
 * A macro's description: what it is for and when to use it, shown to the agents who pick it and
 * to the admins who keep the list. Optional, so the macros saved so far keep none.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('macros').addColumn('description', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('macros').dropColumn('description').execute();
}
