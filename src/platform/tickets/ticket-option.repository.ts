import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { TicketOptionKind, TicketOptionTable } from './ticket.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function listTicketOptions(db: Db, teamId: string, kind: TicketOptionKind) {
  return db
    .selectFrom('ticket_options')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('kind', '=', kind)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export type TicketOptionRow = Awaited<ReturnType<typeof listTicketOptions>>[number];

export async function countTicketOptions(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('ticket_options')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts the options that are not there yet (a concurrent seeding of the same team is fine). */
export async function insertTicketOptionsIfAbsent(db: Db, rows: Insertable<TicketOptionTable>[]): Promise<void> {
  await db
    .insertInto('ticket_options')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A status of the organization by id, or undefined. */
export async function findTicketStatus(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('ticket_options')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'status')
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateTicketOption(db: Db, id: string, changes: Updateable<TicketOptionTable>): Promise<void> {
  await db.updateTable('ticket_options').set(changes).where('id', '=', id).execute();
}
