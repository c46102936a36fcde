import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Which ticket emails each user gets (assignment, customer reply, mention, team-wide mail about
 * unassigned tickets). A user without a row gets every kind, so existing users need no backfill.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('user_notification_preferences')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('assigned', types.boolean, (col) => col.notNull())
    .addColumn('customer_reply', types.boolean, (col) => col.notNull())
    .addColumn('mentioned', types.boolean, (col) => col.notNull())
    .addColumn('team_unassigned', types.boolean, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_notification_preferences').execute();
}
