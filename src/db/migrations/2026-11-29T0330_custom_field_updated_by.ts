import type { Kysely } from 'kysely';

/**
 * Who last changed a custom field (created, updated or deleted it), so that a bulk update refused
 * for a stale version can tell the person editing whose change won. Fields changed before this
 * have none.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('custom_fields').addColumn('updated_by', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('custom_fields').dropColumn('updated_by').execute();
}
