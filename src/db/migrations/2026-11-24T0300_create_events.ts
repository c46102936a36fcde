import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * The event log: one row per thing that happened in an organization, written in the transaction
 * of the change. `seq` numbers an organization's events in commit order: every writer takes the
 * next number by upserting its organization's row in `event_sequences`, which holds that row's lock
 * until the transaction ends, so a number is never committed after a higher one (a reader paging
 * `seq > last` cannot skip a row that commits late). The visibility columns (ticket, team, private
 * ticket, internal comment, private note's author) let readers filter without reading the resource again.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('event_sequences')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id'))
    .addColumn('last_seq', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('seq', 'bigint', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('occurred_at', types.timestamp, (col) => col.notNull())
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('data', types.json, (col) => col.notNull())
    .addColumn('changes', types.json)
    .addColumn('ticket_id', 'text')
    .addColumn('team_id', 'text')
    .addColumn('ticket_is_private', types.boolean, (col) => col.notNull().defaultTo(false))
    .addColumn('is_internal', types.boolean, (col) => col.notNull().defaultTo(false))
    .addColumn('private_to_user_id', 'text')
    .addPrimaryKeyConstraint('events_pkey', ['organization_id', 'seq'])
    .execute();
  // `GET /v1/events?type=…`: the organization's events of some types in seq order.
  await db.schema.createIndex('events_org_type_seq').on('events').columns(['organization_id', 'type', 'seq']).execute();
  // Retention: the oldest events of every organization, a batch at a time.
  await db.schema.createIndex('events_occurred_at').on('events').column('occurred_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
  await db.schema.dropTable('event_sequences').execute();
}
