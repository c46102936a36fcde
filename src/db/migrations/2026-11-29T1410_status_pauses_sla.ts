import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  // A status that stops SLA clocks while a ticket is in it (On hold: waiting on the customer).
  await db.schema
    .alterTable('ticket_options')
    .addColumn('pauses_sla', types.boolean, (col) => col.notNull().defaultTo(false))
    .execute();
  await db
    .updateTable('ticket_options')
    .set({ pauses_sla: true })
    .where('kind', '=', 'status')
    .where('name', '=', 'on_hold')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ticket_options').dropColumn('pauses_sla').execute();
}
