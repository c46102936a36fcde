import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { findTeamById, findTeamMember, lockTeamRow, type TeamRow } from './team.repository.js';

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

/**
 * The team `teamId` of the organization, or undefined: an active one, or with `includeArchived`
 * an archived one too (routing still names a team archived since a rule pointed at it).
 */
export async function findTeam(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  teamId: string,
  options: { includeArchived?: boolean } = {},
): Promise<TeamRow | undefined> {
  return findTeamById(db, organizationId, teamId, options);
}

/** Whether the user is a member of the team: members see its private tickets. */
export async function isTeamMember(db: Kysely<DB> | Transaction<DB>, teamId: string, userId: string): Promise<boolean> {
  return (await findTeamMember(db, teamId, userId)) !== undefined;
}

/**
 * Holds the team's row until the transaction ends, so that writers of something numbered per team
 * (its routing rules' order) take turns.
 */
export async function lockTeamForUpdate(trx: Transaction<DB>, organizationId: string, teamId: string): Promise<void> {
  await lockTeamRow(trx, organizationId, teamId);
}
