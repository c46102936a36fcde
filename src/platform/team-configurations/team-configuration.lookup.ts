import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { defaultTeamConfiguration } from './team-configuration.defaults.js';
import { toSchedule, toTeamConfiguration } from './team-configuration.presenter.js';
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

/** The team's hours for business-time math, or null (calendar time) when it never stored a configuration. */
export async function findTeamSchedule(db: Kysely<DB> | Transaction<DB>, organizationId: string, teamId: string) {
  const row = await findTeamConfiguration(db, organizationId, teamId);
  return row ? toSchedule(toTeamConfiguration(row)) : null;
}
