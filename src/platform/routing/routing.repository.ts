import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate, forUpdate, forUpdateSkipLocked } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { TicketRoutingDecisionTable } from './routing.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Members of the teams with the team they belong to, in joining order (deleted and disabled users left out). */
export async function listRoutingMembers(db: Db, teamIds: string[]) {
  if (teamIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['team_members.team_id', 'team_members.user_id', 'team_members.joined_at'])
    .where('team_members.team_id', 'in', teamIds)
    .where('users.deleted_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .orderBy('team_members.joined_at')
    .orderBy('team_members.user_id')
    .execute();
}

function selectCandidateUsers(db: Db, organizationId: string, userIds: string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'status', 'capacity', 'timezone', 'last_assigned_at', 'last_assignment_seq'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', userIds)
    .where('deleted_at', 'is', null)
    .orderBy('id');
}

export type CandidateUserRow = Awaited<ReturnType<ReturnType<typeof selectCandidateUsers>['execute']>>[number];

/** The users' routing fields, read without locking (the explain endpoint). */
export async function findCandidateUsers(db: Db, organizationId: string, userIds: string[]): Promise<CandidateUserRow[]> {
  return userIds.length === 0 ? [] : selectCandidateUsers(db, organizationId, userIds).execute();
}

/**
 * The users' routing fields, locked until the transaction ends (PostgreSQL; SQLite runs one
 * writer). Locked in id order, so two routings over overlapping members cannot deadlock; their
 * open-ticket counts and last assignments cannot change under the caller until it commits. The
 * lock is `for no key update`, so tickets and comments naming these users (foreign keys) are not
 * held up by it, and no routing can deadlock against such an insert.
 */
export async function lockCandidateUsers(trx: Transaction<DB>, organizationId: string, userIds: string[]) {
  return userIds.length === 0 ? [] : forNoKeyUpdate(trx, selectCandidateUsers(trx, organizationId, userIds)).execute();
}

/** Open (not closed, not deleted) tickets assigned to each user; users without any are left out. */
export async function countOpenTickets(db: Db, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) {
    return new Map();
  }
  const rows = await db
    .selectFrom('tickets')
    .select(['assigned_agent_id', (eb) => eb.fn.countAll<number>().as('open')])
    .where('assigned_agent_id', 'in', userIds)
    .where('closed_at', 'is', null)
    .where('deleted_at', 'is', null)
    .groupBy('assigned_agent_id')
    .execute();
  return new Map(rows.map((row) => [row.assigned_agent_id ?? '', Number(row.open)]));
}

export async function listUserHours(db: Db, userIds: string[]) {
  if (userIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('user_business_hours')
    .select(['user_id', 'timezone', 'common_daily_config', 'common_slots', 'daily_config'])
    .where('user_id', 'in', userIds)
    .execute();
}

/** Records that the user just received a routed ticket. */
export async function markUserAssigned(db: Db, userId: string, at: string, seq: number): Promise<void> {
  await db.updateTable('users').set({ last_assigned_at: at, last_assignment_seq: seq }).where('id', '=', userId).execute();
}

/** The ticket row, locked until the transaction ends (PostgreSQL; SQLite serialises writers). */
export async function lockTicketRow(trx: Transaction<DB>, organizationId: string, ticketId: string) {
  return forUpdate(
    trx,
    trx
      .selectFrom('tickets')
      .select(['id', 'team_id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', ticketId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}

/**
 * The team's oldest ticket (by creation) still waiting for an agent, claimed for the transaction: on PostgreSQL
 * `for update skip locked`, so concurrent workers each take a different ticket.
 */
export async function claimOldestWaitingTicket(trx: Transaction<DB>, teamId: string) {
  return forUpdateSkipLocked(
    trx,
    trx
      .selectFrom('tickets')
      .select(['id', 'organization_id', 'team_id'])
      .where('team_id', '=', teamId)
      .where('awaiting_assignment_since', 'is not', null)
      .where('assigned_agent_id', 'is', null)
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1),
  ).executeTakeFirst();
}

/**
 * Teams that have tickets waiting for an agent: each team asks the partial index
 * `tickets_awaiting_assignment` whether it holds one. As one DISTINCT over tickets, SQLite's
 * planner walked the index on `assigned_agent_id` instead (it chose it even with the statistics
 * of ANALYZE), reading every unassigned ticket: in a helpdesk without routing, every ticket. At a
 * million tickets that was half a second with the event loop blocked on every pass of the worker,
 * the first of them at start.
 */
export async function listTeamsWithWaitingTickets(db: Db) {
  return db
    .selectFrom('teams')
    .select(['teams.organization_id', 'teams.id as team_id'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('tickets')
          .select('tickets.id')
          .whereRef('tickets.team_id', '=', 'teams.id')
          .where('tickets.awaiting_assignment_since', 'is not', null)
          .where('tickets.assigned_agent_id', 'is', null)
          .where('tickets.closed_at', 'is', null)
          .where('tickets.deleted_at', 'is', null),
      ),
    )
    .orderBy('teams.id')
    .execute();
}

/**
 * The teams whose waiting tickets a member could take: the teams they belong to, and the teams
 * that use one of those as their fallback sub-team.
 */
export async function listTeamIdsServedBy(db: Db, organizationId: string, userId: string): Promise<string[]> {
  const own = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('teams.id')
    .where('team_members.user_id', '=', userId)
    .where('teams.organization_id', '=', organizationId)
    .where('teams.archived_at', 'is', null)
    .execute();
  const ownIds = own.map((row) => row.id);
  if (ownIds.length === 0) {
    return [];
  }
  const parents = await db
    .selectFrom('team_configurations')
    .select('team_id')
    .where('organization_id', '=', organizationId)
    .where('fallback_sub_team_id', 'in', ownIds)
    .execute();
  return [...new Set([...ownIds, ...parents.map((row) => row.team_id)])];
}

export async function insertRoutingDecision(db: Db, row: TicketRoutingDecisionTable): Promise<void> {
  await db.insertInto('ticket_routing_decisions').values(row).execute();
}

const DECISION_COLUMNS = [
  'id',
  'organization_id',
  'ticket_id',
  'trigger',
  'from_team_id',
  'team_id',
  'agent_id',
  'outcome',
  'matched_rule_id',
  'previous_ticket_identifier',
  'explanation',
  'decided_by_id',
  'created_at',
] as const;

/**
 * A page of a ticket's decisions, oldest first (then by id), after the `after` keys; `limit + 1`
 * rows, walking ticket_routing_decisions_ticket_created_id.
 */
export async function listRoutingDecisions(
  db: Db,
  organizationId: string,
  ticketId: string,
  page: { after?: CursorKey[]; limit: number },
) {
  let query = db
    .selectFrom('ticket_routing_decisions')
    .select(DECISION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId);
  if (page.after) {
    query = query.where(afterKeys(['created_at', 'id'], page.after, 'asc'));
  }
  return query
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

export type RoutingDecisionRow = Awaited<ReturnType<typeof listRoutingDecisions>>[number];

export async function findRoutingDecision(db: Db, decisionId: string): Promise<RoutingDecisionRow | undefined> {
  return db.selectFrom('ticket_routing_decisions').select(DECISION_COLUMNS).where('id', '=', decisionId).executeTakeFirst();
}
