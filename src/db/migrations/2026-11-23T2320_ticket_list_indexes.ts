import { type Kysely, sql } from 'kysely';

/**
 * Indexes that let the ticket and comment lists read a page from an index range whatever the depth:
 * each covers its filter, the order and the id tiebreak (plus, for tickets, the columns the
 * visibility rule reads, so a deep `page` walks the index alone). Partial on live rows, which is
 * all the lists show; the columns of the partial condition are in the index too, which SQLite
 * needs to answer from the index alone. Also the foreign keys that replies and account/contact deletions follow.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const live = sql<boolean>`deleted_at is null`;
  await db.schema
    .createIndex('tickets_live_organization_created')
    .on('tickets')
    .columns(['organization_id', 'created_at', 'id', 'team_id', 'is_private', 'assigned_agent_id', 'deleted_at'])
    .where(live)
    .execute();
  await db.schema
    .createIndex('tickets_live_team_created')
    .on('tickets')
    .columns(['team_id', 'created_at', 'id', 'organization_id', 'is_private', 'assigned_agent_id', 'deleted_at'])
    .where(live)
    .execute();
  await db.schema.createIndex('tickets_account').on('tickets').column('account_id').execute();
  await db.schema.createIndex('tickets_customer_contact').on('tickets').column('customer_contact_id').execute();
  await db.schema
    .createIndex('ticket_comments_live_threads')
    .on('ticket_comments')
    .columns(['ticket_id', 'created_at', 'id', 'parent_comment_id', 'deleted_at'])
    .where(sql<boolean>`parent_comment_id is null and deleted_at is null`)
    .execute();
  await db.schema
    .createIndex('ticket_comments_parent_created')
    .on('ticket_comments')
    .columns(['parent_comment_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('ticket_comments_customer_contact').on('ticket_comments').column('customer_contact_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'ticket_comments_customer_contact',
    'ticket_comments_parent_created',
    'ticket_comments_live_threads',
    'tickets_customer_contact',
    'tickets_account',
    'tickets_live_team_created',
    'tickets_live_organization_created',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
