import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

type TicketTagRow = { ticket_id: string; id: string; name: string; color: string | null };

const tagsOfOneTicketStatement = prepareQuery<{ ticketId: string }, TicketTagRow>((db: Db, param) =>
  db
    .selectFrom('ticket_tags')
    .innerJoin('team_tags', 'team_tags.id', 'ticket_tags.tag_id')
    .select(['ticket_tags.ticket_id', 'team_tags.id', 'team_tags.name', 'team_tags.color'])
    .where('ticket_tags.ticket_id', '=', param('ticketId')),
);

/**
 * The tags of the enclosing query's ticket (`tickets.id`), with what a ticket shows of each: a
 * subquery for a one-ticket read that brings its tags along (`jsonArrayOf`) instead of a second
 * statement.
 */
export function tagsOfEnclosingTicket(eb: ExpressionBuilder<DB, 'tickets'>) {
  return eb
    .selectFrom('ticket_tags')
    .innerJoin('team_tags', 'team_tags.id', 'ticket_tags.tag_id')
    .select(['team_tags.id', 'team_tags.name', 'team_tags.color'])
    .whereRef('ticket_tags.ticket_id', '=', 'tickets.id');
}

/**
 * The tags of the tickets, with what a ticket shows of each, in one statement (the key's range per
 * ticket). One ticket's, on every ticket read, is compiled once.
 */
export async function listTagsOfTickets(db: Db, ticketIds: readonly string[]): Promise<TicketTagRow[]> {
  if (ticketIds.length === 0) {
    return [];
  }
  if (ticketIds.length === 1) {
    return (await tagsOfOneTicketStatement.execute(db, { ticketId: ticketIds[0] as string })).rows;
  }
  return db
    .selectFrom('ticket_tags')
    .innerJoin('team_tags', 'team_tags.id', 'ticket_tags.tag_id')
    .select(['ticket_tags.ticket_id', 'team_tags.id', 'team_tags.name', 'team_tags.color'])
    .where('ticket_tags.ticket_id', 'in', ticketIds)
    .execute();
}

/** Tags of the organization among `tagIds`, whatever their team or type (the caller says what is wrong). */
export async function findOrganizationTags(db: Db, organizationId: string, tagIds: readonly string[]) {
  if (tagIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('team_tags')
    .select(['id', 'team_id', 'name', 'color', 'tag_type'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', tagIds)
    .execute();
}

export type OrganizationTagRow = Awaited<ReturnType<typeof findOrganizationTags>>[number];

/** The team's tags of type `ticket`. */
export async function listTeamTicketTags(db: Db, organizationId: string, teamId: string): Promise<OrganizationTagRow[]> {
  return db
    .selectFrom('team_tags')
    .select(['id', 'team_id', 'name', 'color', 'tag_type'])
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('tag_type', '=', 'ticket')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Sets the tags on the ticket; a tag it has already is left as it is. */
export async function insertTicketTags(
  db: Db,
  ticket: { id: string; organizationId: string },
  tagIds: readonly string[],
  at: string,
): Promise<void> {
  if (tagIds.length === 0) {
    return;
  }
  await db
    .insertInto('ticket_tags')
    .values(
      tagIds.map((tagId) => ({ ticket_id: ticket.id, tag_id: tagId, organization_id: ticket.organizationId, created_at: at })),
    )
    .onConflict((oc) => oc.columns(['ticket_id', 'tag_id']).doNothing())
    .execute();
}

/** Takes the tags off the ticket (`except` keeps those, when given). */
export async function deleteTicketTags(
  db: Db,
  ticketId: string,
  which: { only: readonly string[] } | { except: readonly string[] },
): Promise<void> {
  let query = db.deleteFrom('ticket_tags').where('ticket_id', '=', ticketId);
  if ('only' in which) {
    if (which.only.length === 0) {
      return;
    }
    query = query.where('tag_id', 'in', which.only);
  } else if (which.except.length > 0) {
    query = query.where('tag_id', 'not in', which.except);
  }
  await query.execute();
}

/** Takes the tag off every ticket that has it (the tag is deleted, or is no longer a ticket tag). */
export async function deleteTagFromTickets(db: Db, tagId: string): Promise<void> {
  await db.deleteFrom('ticket_tags').where('tag_id', '=', tagId).execute();
}
