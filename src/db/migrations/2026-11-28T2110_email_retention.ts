import { type Kysely, sql } from 'kysely';

/**
 * `EMAIL_RETENTION_DAYS` deletes the originals of old emails of closed tickets. Its job walks the
 * messages that still keep their original, oldest first, on an index of those alone: the pruned
 * ones, and every message kept by its headers only, are not in it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('email_messages_raw_kept')
    .on('email_messages')
    .columns(['created_at', 'id'])
    .where(sql.ref('raw'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('email_messages_raw_kept').execute();
}
