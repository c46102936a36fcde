import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Principal } from '../../lib/principal.js';
import { isOrgAdmin } from '../authorization.js';
import type { EventTable } from './event.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Who reads events: a user, or what acts for one (a webhook reads with its owner's eyes). */
export interface EventViewer {
  userId: string;
  /** Organization admins see every event, private tickets and private notes included. */
  seeAll: boolean;
}

export function eventViewerOf(principal: Pick<Principal, 'userId' | 'userType'>): EventViewer {
  return { userId: principal.userId, seeAll: isOrgAdmin(principal as Principal) };
}

type VisibilityColumns = Pick<EventTable, 'ticket_id' | 'team_id' | 'ticket_is_private' | 'private_to_user_id'>;

/** Who may see each event of a batch; answers without touching the database. */
export interface EventAudience {
  canSee(viewer: EventViewer, event: VisibilityColumns): boolean;
}

/**
 * Whether every viewer of the organization may see the event (`canSee` is true for all), so that
 * readers fanning a batch out can build what they send once for all viewers.
 */
export function isSeenByEveryone(event: VisibilityColumns): boolean {
  return event.private_to_user_id === null && (event.ticket_id === null || !readBoolean(event.ticket_is_private));
}

/**
 * The audience of a batch of events, for the readers that fan one batch out to many viewers (the
 * live stream, the webhook dispatcher): the rules are those of the ticket lists (`visibleTickets`),
 * a private ticket's events reach the members of its team (when the event happened, or now) and its
 * assignee now, and something private to one user (a private account note, a chat thread) reaches
 * that user. Admins see everything. Costs at most two queries per batch, whatever the number of
 * viewers, and none when the batch holds nothing private.
 */
export async function loadEventAudience(
  db: Db,
  organizationId: string,
  events: readonly VisibilityColumns[],
): Promise<EventAudience> {
  const privateTickets = events.filter((event) => event.ticket_id !== null && readBoolean(event.ticket_is_private));
  const ticketIds = [...new Set(privateTickets.map((event) => event.ticket_id as string))];
  const tickets = new Map<string, { teamId: string; assigneeId: string | null }>();
  if (ticketIds.length > 0) {
    const rows = await db
      .selectFrom('tickets')
      .select(['id', 'team_id', 'assigned_agent_id'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ticketIds)
      .execute();
    for (const row of rows) {
      tickets.set(row.id, { teamId: row.team_id, assigneeId: row.assigned_agent_id });
    }
  }
  const teamIds = [
    ...new Set([
      ...privateTickets.flatMap((event) => (event.team_id ? [event.team_id] : [])),
      ...[...tickets.values()].map((ticket) => ticket.teamId),
    ]),
  ];
  const members = new Map<string, Set<string>>();
  if (teamIds.length > 0) {
    const rows = await db.selectFrom('team_members').select(['team_id', 'user_id']).where('team_id', 'in', teamIds).execute();
    for (const row of rows) {
      const team = members.get(row.team_id) ?? new Set<string>();
      team.add(row.user_id);
      members.set(row.team_id, team);
    }
  }
  const isMember = (teamId: string | null | undefined, userId: string) =>
    teamId !== null && teamId !== undefined && (members.get(teamId)?.has(userId) ?? false);

  return {
    canSee(viewer, event) {
      if (viewer.seeAll || isSeenByEveryone(event)) {
        return true;
      }
      if (event.private_to_user_id !== null && event.private_to_user_id !== viewer.userId) {
        return false;
      }
      if (event.ticket_id === null || !readBoolean(event.ticket_is_private)) {
        return true;
      }
      const ticket = tickets.get(event.ticket_id);
      return (
        isMember(event.team_id, viewer.userId) || ticket?.assigneeId === viewer.userId || isMember(ticket?.teamId, viewer.userId)
      );
    },
  };
}
