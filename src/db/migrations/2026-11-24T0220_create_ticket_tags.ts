import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Team tags of type `ticket` set on tickets. The key (ticket, tag) makes a tag appear once per
 * ticket and serves "the tags of these tickets"; `ticket_tags_tag_ticket` serves "the tickets
 * with this tag" (list filters) and the cascade when a team tag is deleted.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('ticket_tags')
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (col) => col.notNull().references('team_tags.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('ticket_tags_pk', ['ticket_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('ticket_tags_tag_ticket').on('ticket_tags').columns(['tag_id', 'ticket_id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_tags').execute();
}
