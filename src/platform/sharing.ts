import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/database.js';
import type { Principal } from '../lib/principal.js';
import { isOrgAdmin } from './authorization.js';
import { findTeamMember } from './teams/team.repository.js';
import { requireManagedTeam } from './teams/team.service.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Who sees and who manages what an agent saves for later (macros, saved views), as in Zendesk:
 * a personal one (`team_id` null) is its owner's alone, and anyone else gets a 404 as if it did not
 * exist, admins included; one shared with a team is seen and used by the team's members and the
 * organization's admins, and created, changed or deleted by admins of that team or of the
 * organization (a member gets 403).
 */
export interface Shareable {
  owner_id: string;
  team_id: string | null;
}

export async function canSeeShareable(db: Db, principal: Principal, row: Shareable): Promise<boolean> {
  if (row.team_id === null) {
    return row.owner_id === principal.userId;
  }
  return isOrgAdmin(principal) || (await findTeamMember(db, row.team_id, principal.userId)) !== undefined;
}

/**
 * Checks that the caller may keep something in `teamId`'s scope (null: their own). Another
 * organization's team, or a missing one, is the 404 of every team id.
 */
export async function requireManageableScope(db: Db, principal: Principal, teamId: string | null): Promise<void> {
  if (teamId !== null) {
    await requireManagedTeam(db, principal, teamId);
  }
}
