import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { defaultTeamConfiguration } from './team-configuration.defaults.js';
import { findTeamConfiguration } from './team-configuration.repository.js';

/**
 * The team's stored configuration, or the defaults it was made with if the row is missing: what
 * the routing engine reads, in its own transaction (no access check; the engine acts for the system).
 */
export async function findTeamConfigurationOrDefaults(
  db: Kysely<DB> | Transaction<DB>,
  team: { id: string; organization_id: string; created_at: string },
) {
  return (
    (await findTeamConfiguration(db, team.organization_id, team.id)) ??
    defaultTeamConfiguration(team.id, team.organization_id, team.created_at)
  );
}
