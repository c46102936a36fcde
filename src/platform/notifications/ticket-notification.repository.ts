import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

type Db = Kysely<DB> | Transaction<DB>;

/** What a ticket email shows and who may see the ticket, read in the transaction of the change. */
export async function findNotifiedTicket(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('teams', 'teams.id', 'tickets.team_id')
    .innerJoin('ticket_options as status', 'status.id', 'tickets.status_id')
    .select([
      'tickets.id',
      'tickets.organization_id',
      'tickets.team_id',
      'teams.name as team_name',
      'tickets.ticket_identifier',
      'tickets.title',
      'tickets.description',
      'tickets.is_private',
      'tickets.assigned_agent_id',
      'status.is_closed as status_is_closed',
    ])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .where('tickets.deleted_at', 'is', null)
    .executeTakeFirst();
}

export type NotifiedTicketRow = NonNullable<Awaited<ReturnType<typeof findNotifiedTicket>>>;

/**
 * Live users of the organization among `userIds` or, with `teamMembersOf`, the members of that
 * team, each with their email switches (null when they never changed one) and whether they are a
 * member of `teamId` (who may see a private ticket).
 */
export async function findRecipients(
  db: Db,
  organizationId: string,
  teamId: string,
  who: { userIds: string[]; teamMembersOf?: string },
) {
  if (who.userIds.length === 0 && !who.teamMembersOf) {
    return [];
  }
  return db
    .selectFrom('users')
    .leftJoin('user_notification_preferences as preferences', 'preferences.user_id', 'users.id')
    .select((eb) => [
      'users.id',
      'users.name',
      'users.email',
      'users.user_type',
      'preferences.assigned',
      'preferences.customer_reply',
      'preferences.mentioned',
      'preferences.team_unassigned',
      'preferences.sla_alerts',
      eb
        .exists(
          eb
            .selectFrom('team_members')
            .select('team_members.user_id')
            .where('team_members.team_id', '=', teamId)
            .whereRef('team_members.user_id', '=', 'users.id'),
        )
        .as('is_member'),
    ])
    .where('users.organization_id', '=', organizationId)
    .where('users.deleted_at', 'is', null)
    .where((eb) => {
      const alternatives = [];
      if (who.userIds.length > 0) {
        alternatives.push(eb('users.id', 'in', who.userIds));
      }
      if (who.teamMembersOf) {
        alternatives.push(
          eb(
            'users.id',
            'in',
            eb.selectFrom('team_members').select('team_members.user_id').where('team_members.team_id', '=', who.teamMembersOf),
          ),
        );
      }
      return eb.or(alternatives);
    })
    .orderBy('users.id')
    .execute();
}

export type RecipientRow = Awaited<ReturnType<typeof findRecipients>>[number];

/** Live users of the organization a note's mentions may name: by id, by email or by name, case-insensitively. */
export async function findMentionableUsers(
  db: Db,
  organizationId: string,
  candidates: { ids: string[]; emails: string[]; names: string[] },
) {
  if (candidates.ids.length + candidates.emails.length + candidates.names.length === 0) {
    return [];
  }
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where((eb) => {
      const alternatives = [];
      if (candidates.ids.length > 0) {
        alternatives.push(eb('id', 'in', candidates.ids));
      }
      if (candidates.emails.length > 0) {
        alternatives.push(eb(sql<string>`lower(email)`, 'in', candidates.emails));
      }
      if (candidates.names.length > 0) {
        alternatives.push(eb(sql<string>`lower(trim(name))`, 'in', candidates.names));
      }
      return eb.or(alternatives);
    })
    .execute();
}
