import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { findTeamById, findTeamMember, type TeamRow } from './team.repository.js';

/**
 * The active team `teamId` of the organization, or the 404 every team-scoped route answers
 * (another organization's team is indistinguishable from a missing one).
 */
export async function requireTeam(db: Kysely<DB> | Transaction<DB>, organizationId: string, teamId: string): Promise<TeamRow> {
  const team = await findTeamById(db, organizationId, teamId);
  if (!team) {
    throw AppError.notFound('Team not found!');
  }
  return team;
}

/** Whether the user is a member of the team: members see its private tickets. */
export async function isTeamMember(db: Kysely<DB> | Transaction<DB>, teamId: string, userId: string): Promise<boolean> {
  return (await findTeamMember(db, teamId, userId)) !== undefined;
}
