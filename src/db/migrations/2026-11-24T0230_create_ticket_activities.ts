import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * A ticket's timeline: one row per changed field, written in the transaction of the change and
 * never updated. `seq` numbers a ticket's entries in the order their changes committed (every
 * writer holds the ticket's row lock and takes the next number); the unique index makes a lost
 * lock fail loudly rather than interleave, and serves the newest-first pages.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('ticket_activities')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('field', 'text', (col) => col.notNull())
    .addColumn('old_value', types.json)
    .addColumn('new_value', types.json)
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_activities_ticket_seq')
    .unique()
    .on('ticket_activities')
    .columns(['ticket_id', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_activities').execute();
}
