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

/**
 * What the timeline compares of a ticket, names beside ids, and the number of its last entry (read
 * under the row lock, the next one is free); deleted tickets included.
 */
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
      (eb) =>
        eb
          .selectFrom('ticket_activities')
          .select((inner) => inner.fn.max('ticket_activities.seq').as('seq'))
          .whereRef('ticket_activities.ticket_id', '=', 'tickets.id')
          .as('last_activity_seq'),
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

/**
 * A page of the ticket's timeline, newest first: `limit + 1` entries below `beforeSeq`, on
 * ticket_activities_ticket_seq, with the current name of a user or contact who made them.
 */
export async function listActivities(
  db: Db,
  organizationId: string,
  ticketId: string,
  page: { beforeSeq?: number; limit: number },
) {
  let query = db
    .selectFrom('ticket_activities as activity')
    .leftJoin('users as user', (join) => join.onRef('user.id', '=', 'activity.actor_id').on('activity.actor_type', '=', 'user'))
    .leftJoin('customer_contacts as contact', (join) =>
      join.onRef('contact.id', '=', 'activity.actor_id').on('activity.actor_type', '=', 'customer_contact'),
    )
    .select([
      'activity.id',
      'activity.ticket_id',
      'activity.seq',
      'activity.field',
      'activity.old_value',
      'activity.new_value',
      'activity.actor_type',
      'activity.actor_id',
      'activity.actor_name',
      'activity.created_at',
      'user.name as user_name',
      'contact.first_name as contact_first_name',
      'contact.last_name as contact_last_name',
      'contact.email as contact_email',
    ])
    .where('activity.ticket_id', '=', ticketId)
    .where('activity.organization_id', '=', organizationId);
  if (page.beforeSeq !== undefined) {
    query = query.where('activity.seq', '<', page.beforeSeq);
  }
  return query
    .orderBy('activity.seq', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export type TicketActivityRow = Awaited<ReturnType<typeof listActivities>>[number];

/**
 * Locks, in id order, the live tickets that have the tag, and answers their ids: what a tag's
 * deletion changes. Id order, like every multi-ticket change, so it cannot deadlock with them.
 */
export async function lockTicketsWithTag(trx: Transaction<DB>, tagId: string): Promise<string[]> {
  const rows = await forNoKeyUpdate(
    trx,
    trx
      .selectFrom('tickets')
      .select('tickets.id')
      .where('tickets.id', 'in', (eb) =>
        eb.selectFrom('ticket_tags').select('ticket_tags.ticket_id').where('ticket_tags.tag_id', '=', tagId),
      )
      .where('tickets.deleted_at', 'is', null)
      .orderBy('tickets.id'),
  ).execute();
  return rows.map((row) => row.id);
}

/** The number of each ticket's last timeline entry (0 for none); read under the tickets' row locks. */
export async function lastActivitySeqs(db: Db, ticketIds: readonly string[]): Promise<Map<string, number>> {
  if (ticketIds.length === 0) {
    return new Map();
  }
  const rows = await db
    .selectFrom('ticket_activities')
    .select(['ticket_id', (eb) => eb.fn.max('seq').as('seq')])
    .where('ticket_id', 'in', ticketIds)
    .groupBy('ticket_id')
    .execute();
  return new Map(rows.map((row) => [row.ticket_id, Number(row.seq ?? 0)]));
}
