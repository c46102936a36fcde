import type { ExpressionBuilder, Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { forUpdate, inJsonArray } from '../../db/dialect.js';
import type { TicketSlaEventTable, TicketSlaTargetTable } from './ticket-sla.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** What policies match on, read under the ticket's row lock: its fields, status and priority keys. */
export async function findTicketSlaFacts(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .innerJoin('ticket_options as priority', 'priority.id', 'tickets.priority_id')
    .leftJoin('ticket_options as type', 'type.id', 'tickets.type_id')
    .select([
      'tickets.id',
      'tickets.organization_id',
      'tickets.team_id',
      'tickets.title',
      'tickets.description',
      'tickets.source',
      'tickets.requestor_email',
      'tickets.account_id',
      'tickets.custom_field_values',
      'tickets.created_at',
      'status.name as status_key',
      'status.display_name as status_name',
      'status.is_closed as status_is_closed',
      'status.pauses_sla as status_pauses_sla',
      'priority.name as priority_key',
      'priority.display_name as priority_name',
      'type.name as type_key',
      'type.display_name as type_name',
    ])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
}

export type TicketSlaFacts = NonNullable<Awaited<ReturnType<typeof findTicketSlaFacts>>>;

/** The ticket's targets, one statement on the unique (ticket, metric) index. */
function selectTicketTargets(db: Db) {
  return db.selectFrom('ticket_sla_targets').selectAll();
}

export type TicketTargetRow = Awaited<ReturnType<ReturnType<typeof selectTicketTargets>['executeTakeFirstOrThrow']>>;

/** Compiled once: every public reply asks it (most tickets have no targets). */
const listTicketTargetsStatement = prepareQuery<{ ticketId: string }, TicketTargetRow>((db, param) =>
  selectTicketTargets(db as Db).where('ticket_id', '=', param('ticketId')),
);

export async function listTicketTargets(db: Db, ticketId: string): Promise<TicketTargetRow[]> {
  return (await listTicketTargetsStatement.execute(db, { ticketId })).rows;
}

/** The ticket's row, held until the transaction ends (first, as every change of the ticket takes it). */
export async function lockTicketRow(trx: Transaction<DB>, ticketId: string): Promise<void> {
  await forUpdate(trx, trx.selectFrom('tickets').select('id').where('id', '=', ticketId)).execute();
}

/** The ticket's targets, each row held until the transaction ends. */
export async function lockTicketTargets(trx: Transaction<DB>, ticketId: string) {
  return forUpdate(
    trx,
    trx.selectFrom('ticket_sla_targets').selectAll().where('ticket_id', '=', ticketId).orderBy('id'),
  ).execute();
}

/** The targets of a page of tickets, in one statement. */
const TARGET_STATE_COLUMNS = ['ticket_id', 'policy_id', 'metric', 'status', 'due_at', 'met_at', 'breached_at'] as const;

function selectTargetStates(db: Db) {
  return db.selectFrom('ticket_sla_targets').select(TARGET_STATE_COLUMNS);
}

/** The targets of the ticket of the enclosing query, for a ticket read that brings them along (`jsonArrayOf`). */
export function targetStatesOfEnclosingTicket(eb: ExpressionBuilder<DB, 'tickets'>) {
  return eb
    .selectFrom('ticket_sla_targets')
    .select(TARGET_STATE_COLUMNS)
    .whereRef('ticket_sla_targets.ticket_id', '=', 'tickets.id');
}

export type TargetStateRow = Awaited<ReturnType<ReturnType<typeof selectTargetStates>['executeTakeFirstOrThrow']>>;

// Every ticket list presents its page's targets: one statement, compiled once, for any count.
const targetsOfTickets = prepareQuery<{ ticketIds: string }, TargetStateRow>((db, param) =>
  selectTargetStates(db as Db).where(inJsonArray(db as Db, 'ticket_id', param('ticketIds'))),
);

export async function listTargetsOfTickets(db: Db, ticketIds: readonly string[]): Promise<TargetStateRow[]> {
  if (ticketIds.length === 0) {
    return [];
  }
  return (await targetsOfTickets.execute(db, { ticketIds: JSON.stringify(ticketIds) })).rows;
}

export async function insertTarget(db: Db, row: TicketSlaTargetTable): Promise<void> {
  await db.insertInto('ticket_sla_targets').values(row).execute();
}

export async function updateTarget(db: Db, id: string, changes: Updateable<TicketSlaTargetTable>): Promise<void> {
  await db.updateTable('ticket_sla_targets').set(changes).where('id', '=', id).execute();
}

export async function deleteTargets(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) {
    await db.deleteFrom('ticket_sla_targets').where('id', 'in', ids).execute();
  }
}

export async function insertSlaEvents(db: Db, rows: Insertable<TicketSlaEventTable>[]): Promise<void> {
  if (rows.length > 0) {
    await db.insertInto('ticket_sla_events').values(rows).execute();
  }
}

/** The ticket's clock history, oldest first, keyset-paged by id (ULIDs in time order). */
export async function listSlaEvents(db: Db, ticketId: string, afterId: string | null, limit: number) {
  let query = db.selectFrom('ticket_sla_events').selectAll().where('ticket_id', '=', ticketId).orderBy('id').limit(limit);
  if (afterId) {
    query = query.where('id', '>', afterId);
  }
  return query.execute();
}

/** Open tickets of a team with running targets: their due times move with the team's hours. */
export async function lockRunningTargetsOfTeam(trx: Transaction<DB>, organizationId: string, teamId: string) {
  return forUpdate(
    trx,
    trx
      .selectFrom('ticket_sla_targets')
      .innerJoin('tickets', 'tickets.id', 'ticket_sla_targets.ticket_id')
      .selectAll('ticket_sla_targets')
      .where('tickets.organization_id', '=', organizationId)
      .where('tickets.team_id', '=', teamId)
      .where('ticket_sla_targets.running_since', 'is not', null)
      .orderBy('ticket_sla_targets.id'),
  ).execute();
}

/** Tickets in a status that have SLA targets, their rows held (in id order, as ticket changes take them). */
export async function lockTicketsWithTargetsInStatus(trx: Transaction<DB>, organizationId: string, statusId: string) {
  const rows = await forUpdate(
    trx,
    trx
      .selectFrom('tickets')
      .select('tickets.id')
      .where('tickets.organization_id', '=', organizationId)
      .where('tickets.status_id', '=', statusId)
      .where((eb) =>
        eb.exists(eb.selectFrom('ticket_sla_targets').select('id').whereRef('ticket_sla_targets.ticket_id', '=', 'tickets.id')),
      )
      .orderBy('tickets.id'),
  ).execute();
  return rows.map((row) => row.id);
}
