import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';
import type { TicketActivityTable } from './ticket-activity.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Locks the ticket's row until the transaction ends, before its current values are read: two
 * changes of one ticket then take turns, so each reads the values the other wrote and the
 * timeline's old values chain. `for no key update` (PostgreSQL) conflicts with every other writer of
 * the row (and with the routing worker's `for update skip locked` claim) but not with inserts whose
 * foreign keys point at it, so comments keep going in meanwhile. SQLite runs one writer at a time.
 */
export async function lockTicketForChange(trx: Transaction<DB>, organizationId: string, ticketId: string) {
  return forNoKeyUpdate(
    trx,
    trx.selectFrom('tickets').select('id').where('organization_id', '=', organizationId).where('id', '=', ticketId),
  ).executeTakeFirst();
}

/** What the timeline compares of a ticket, names beside ids; deleted tickets included. */
export async function findTicketSnapshot(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('teams', 'teams.id', 'tickets.team_id')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .innerJoin('ticket_options as priority', 'priority.id', 'tickets.priority_id')
    .leftJoin('ticket_options as type', 'type.id', 'tickets.type_id')
    .leftJoin('users as agent', 'agent.id', 'tickets.assigned_agent_id')
    .leftJoin('accounts as account', 'account.id', 'tickets.account_id')
    .select([
      'tickets.id',
      'tickets.organization_id',
      'tickets.ticket_identifier',
      'tickets.title',
      'tickets.description',
      'tickets.is_private',
      'tickets.due_date',
      'tickets.custom_field_values',
      'tickets.deleted_at',
      'tickets.team_id',
      'teams.name as team_name',
      'teams.identifier as team_identifier',
      'tickets.status_id',
      'status.display_name as status_name',
      'tickets.priority_id',
      'priority.display_name as priority_name',
      'tickets.type_id',
      'type.display_name as type_name',
      'tickets.assigned_agent_id',
      'agent.name as agent_name',
      'agent.email as agent_email',
      'tickets.account_id',
      'account.name as account_name',
    ])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
}

export type TicketSnapshotRow = NonNullable<Awaited<ReturnType<typeof findTicketSnapshot>>>;

/** The highest entry number of the ticket's timeline (0 for none); read under the ticket's row lock. */
export async function lastActivitySeq(db: Db, ticketId: string): Promise<number> {
  const row = await db
    .selectFrom('ticket_activities')
    .select('seq')
    .where('ticket_id', '=', ticketId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

export async function insertActivities(db: Db, rows: TicketActivityTable[]): Promise<void> {
  if (rows.length > 0) {
    await db.insertInto('ticket_activities').values(rows).execute();
  }
}

const ACTIVITY_COLUMNS = [
  'id',
  'ticket_id',
  'seq',
  'field',
  'old_value',
  'new_value',
  'actor_type',
  'actor_id',
  'actor_name',
  'created_at',
] as const;

/** A page of the ticket's timeline, newest first: `limit + 1` entries below `beforeSeq`, on ticket_activities_ticket_seq. */
export async function listActivities(
  db: Db,
  organizationId: string,
  ticketId: string,
  page: { beforeSeq?: number; limit: number },
) {
  let query = db
    .selectFrom('ticket_activities')
    .select(ACTIVITY_COLUMNS)
    .where('ticket_id', '=', ticketId)
    .where('organization_id', '=', organizationId);
  if (page.beforeSeq !== undefined) {
    query = query.where('seq', '<', page.beforeSeq);
  }
  return query
    .orderBy('seq', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export type TicketActivityRow = Awaited<ReturnType<typeof listActivities>>[number];
