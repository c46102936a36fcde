import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import type { TeamConfigurationTable } from './team-configuration.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const CONFIGURATION_COLUMNS = [
  'team_id',
  'organization_id',
  'timezone',
  'routing_respects_timezone',
  'routing_respects_user_capacity',
  'routing_respects_user_timezone',
  'routing_respects_user_availability',
  'routing_respects_user_business_hours',
  'user_routing_strategy',
  'fallback_sub_team_id',
  'holidays',
  'common_daily_config',
  'common_slots',
  'daily_config',
  'ai_agent_id',
  'ai_agent_mode',
  'created_at',
  'updated_at',
] as const;

function selectConfiguration(db: Db, organizationId: string, teamId: string) {
  return db
    .selectFrom('team_configurations')
    .select(CONFIGURATION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId);
}

export type TeamConfigurationRow = Awaited<ReturnType<ReturnType<typeof selectConfiguration>['executeTakeFirstOrThrow']>>;

export async function findTeamConfiguration(db: Db, organizationId: string, teamId: string) {
  return selectConfiguration(db, organizationId, teamId).executeTakeFirst();
}

/** The configuration row, locked until the transaction ends (PostgreSQL; SQLite serialises writers). */
export async function lockTeamConfiguration(trx: Transaction<DB>, organizationId: string, teamId: string) {
  return forUpdate(trx, selectConfiguration(trx, organizationId, teamId)).executeTakeFirst();
}

export async function insertTeamConfiguration(db: Db, row: TeamConfigurationTable): Promise<void> {
  await db.insertInto('team_configurations').values(row).execute();
}

export async function updateTeamConfiguration(
  db: Db,
  organizationId: string,
  teamId: string,
  changes: Updateable<TeamConfigurationTable>,
): Promise<void> {
  await db
    .updateTable('team_configurations')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .execute();
}

/** `subTeamId` when it is an active direct sub-team of `parentTeamId` in the organization. */
export async function findActiveSubTeam(db: Db, organizationId: string, parentTeamId: string, subTeamId: string) {
  return db
    .selectFrom('teams')
    .select(['id'])
    .where('organization_id', '=', organizationId)
    .where('parent_team_id', '=', parentTeamId)
    .where('id', '=', subTeamId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}
