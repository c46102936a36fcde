import type { Kysely } from 'kysely';

/**
 * `ticket_comments_ticket_created` (ticket, creation time) predates the comment list's own index
 * (`ticket_comments_live_threads`), and a lookup by ticket alone (the ticket's deletion cascade) is
 * served by the unique (ticket, dedupe key) index. It was one more index written by every comment,
 * on the hottest write path, and read by no query.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ticket_comments_ticket_created').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('ticket_comments_ticket_created')
    .on('ticket_comments')
    .columns(['ticket_id', 'created_at'])
    .execute();
}
