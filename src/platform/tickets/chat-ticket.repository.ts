import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate, readBoolean } from '../../db/dialect.js';

type Db = Kysely<DB> | Transaction<DB>;

/** A live chat ticket, its row locked for the change the caller makes in its transaction. */
export function lockChatTicket(trx: Transaction<DB>, organizationId: string, ticketId: string) {
  return forNoKeyUpdate(
    trx,
    trx
      .selectFrom('tickets')
      .select(['id', 'team_id', 'is_private', 'requestor_email', 'customer_contact_id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', ticketId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}

export interface ChatTicketState {
  identifier: string;
  teamId: string;
  teamName: string;
  closed: boolean;
}

export async function findChatTicketState(
  db: Db,
  organizationId: string,
  ticketId: string,
): Promise<ChatTicketState | undefined> {
  const row = await db
    .selectFrom('tickets')
    .innerJoin('teams', 'teams.id', 'tickets.team_id')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .select(['tickets.ticket_identifier', 'tickets.team_id', 'teams.name as team_name', 'status.is_closed'])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .where('tickets.deleted_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      identifier: row.ticket_identifier,
      teamId: row.team_id,
      teamName: row.team_name,
      closed: readBoolean(row.is_closed),
    }
  );
}

/**
 * Minutes from each of a team's newest tickets of a source (made since `since`, at most `limit`)
 * to its first public comment by a person of the team (not an AI agent, not the customer); tickets
 * nobody answered yet are left out.
 */
export async function firstReplyMinutesOfTeam(
  db: Db,
  of: { organizationId: string; teamId: string; source: string; since: string },
  limit: number,
): Promise<number[]> {
  const tickets = await db
    .selectFrom('tickets')
    .select(['id', 'created_at'])
    .where('organization_id', '=', of.organizationId)
    .where('team_id', '=', of.teamId)
    .where('source', '=', of.source)
    .where('created_at', '>=', of.since)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  if (tickets.length === 0) {
    return [];
  }
  const replies = await db
    .selectFrom('ticket_comments')
    .select(['ticket_id', (eb) => eb.fn.min('created_at').as('first_reply_at')])
    .where(
      'ticket_id',
      'in',
      tickets.map((ticket) => ticket.id),
    )
    .where('comment_visibility', '=', 'public')
    .where('comment_type', '!=', 'note')
    .where('author_id', 'is not', null)
    .where('author_agent_id', 'is', null)
    .where('deleted_at', 'is', null)
    .groupBy('ticket_id')
    .execute();
  const createdAt = new Map(tickets.map((ticket) => [ticket.id, Date.parse(ticket.created_at)]));
  return replies.flatMap((reply) => {
    const from = createdAt.get(reply.ticket_id);
    const to = Date.parse(String(reply.first_reply_at));
    return from === undefined || Number.isNaN(to) ? [] : [Math.max(0, (to - from) / 60_000)];
  });
}
