import type { Kysely, Transaction, Updateable } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { TeamMemberTable, TeamTable } from './team.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** A keyset page: the rows after `after` (the sort keys of the previous page's last row), `limit + 1` of them. */
export interface CursorPage {
  after?: CursorKey[];
  limit: number;
}

const TEAM_COLUMNS = [
  'teams.id',
  'teams.organization_id',
  'teams.name',
  'teams.identifier',
  'teams.description',
  'teams.icon',
  'teams.color',
  'teams.parent_team_id',
  'teams.is_private',
  'teams.owner_id',
  'teams.created_at',
  'teams.updated_at',
  'teams.archived_at',
] as const;

/** A team with the names the API shows beside ids (parent, owner, fallback sub-team). */
function selectTeams(db: Db) {
  return db
    .selectFrom('teams')
    .leftJoin('teams as parent', 'parent.id', 'teams.parent_team_id')
    .innerJoin('users as owner', 'owner.id', 'teams.owner_id')
    .leftJoin('team_configurations as configuration', 'configuration.team_id', 'teams.id')
    .select(TEAM_COLUMNS)
    .select(['parent.name as parent_team_name', 'owner.name as owner_name', 'configuration.fallback_sub_team_id']);
}

export type TeamRow = Awaited<ReturnType<ReturnType<typeof selectTeams>['executeTakeFirstOrThrow']>>;

export async function insertTeam(db: Db, row: TeamTable): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

/** Inserts the team unless its identifier is taken in the organization (any case); answers whether it did. */
export async function insertTeamUnlessIdentifierTaken(db: Db, row: TeamTable): Promise<boolean> {
  // No conflict target: the unique index is on an expression, upper(identifier); the id is new.
  const result = await db
    .insertInto('teams')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A team of the organization; archived ones only when asked for. */
function teamByIdStatement(includeArchived: boolean) {
  return prepareQuery<{ organizationId: string; teamId: string }, TeamRow>((db: Db, param) => {
    const query = selectTeams(db)
      .where('teams.organization_id', '=', param('organizationId'))
      .where('teams.id', '=', param('teamId'));
    return includeArchived ? query : query.where('teams.archived_at', 'is', null);
  });
}

/** Compiled once: every ticket list filtered by team, and most team routes, look the team up first. */
const teamByIdStatements = { live: teamByIdStatement(false), any: teamByIdStatement(true) };

export async function findTeamById(
  db: Db,
  organizationId: string,
  teamId: string,
  options: { includeArchived?: boolean } = {},
): Promise<TeamRow | undefined> {
  const statement = options.includeArchived ? teamByIdStatements.any : teamByIdStatements.live;
  const { rows } = await statement.execute(db, { organizationId, teamId });
  return rows[0];
}

/**
 * A page of the organization's active teams, oldest first (then by id), `limit + 1` rows; `parentTeamId`
 * narrows to one team's sub-teams. Walks teams_active_organization_created or teams_active_parent_created.
 */
export async function listTeams(
  db: Db,
  organizationId: string,
  filter: { parentTeamId?: string; memberUserId?: string },
  page: CursorPage,
) {
  let query = selectTeams(db).where('teams.organization_id', '=', organizationId).where('teams.archived_at', 'is', null);
  if (filter.parentTeamId) {
    query = query.where('teams.parent_team_id', '=', filter.parentTeamId);
  }
  if (filter.memberUserId) {
    const userId = filter.memberUserId;
    query = query.where((eb) =>
      eb.or([
        eb('teams.is_private', '=', false),
        eb.exists(
          eb
            .selectFrom('team_members')
            .select('team_members.user_id')
            .whereRef('team_members.team_id', '=', 'teams.id')
            .where('team_members.user_id', '=', userId),
        ),
      ]),
    );
  }
  return inKeysetOrder(query, ['teams.created_at', 'teams.id'], page.after)

    .limit(page.limit + 1)
    .execute();
}

export async function findTeamByIdentifier(db: Db, organizationId: string, identifier: string) {
  return db
    .selectFrom('teams')
    .select(['id'])
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('upper', ['identifier']), '=', identifier.toUpperCase()))
    .executeTakeFirst();
}

/** Upper-cased identifiers of the organization that start with `prefix`: letters and digits, so no LIKE wildcards. */
export async function findTeamIdentifiersStartingWith(db: Db, organizationId: string, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('teams')
    .select((eb) => eb.fn<string>('upper', ['identifier']).as('identifier'))
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('upper', ['identifier']), 'like', `${prefix}%`))
    .execute();
  return rows.map((row) => row.identifier);
}

export async function updateTeam(db: Db, organizationId: string, teamId: string, changes: Updateable<TeamTable>): Promise<void> {
  await db.updateTable('teams').set(changes).where('organization_id', '=', organizationId).where('id', '=', teamId).execute();
}

export async function countActiveSubTeams(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('parent_team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertTeamMember(db: Db, row: TeamMemberTable): Promise<void> {
  await db.insertInto('team_members').values(row).execute();
}

export async function deleteTeamMember(db: Db, teamId: string, userId: string): Promise<number> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findTeamMember(db: Db, teamId: string, userId: string) {
  return db
    .selectFrom('team_members')
    .select(['team_id', 'user_id', 'is_admin', 'joined_at'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Members with their user fields. */
function selectTeamMembers(db: Db, teamId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .leftJoin('users as inviter', 'inviter.id', 'team_members.invited_by_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.user_type',
      'users.avatar_url',
      'users.status',
      'users.capacity',
      'users.timezone',
      'users.created_at',
      'team_members.is_admin',
      'team_members.joined_at',
      'team_members.team_id',
      'inviter.name as invited_by',
    ])
    .where('team_members.team_id', '=', teamId)
    .where('users.deleted_at', 'is', null);
}

/**
 * A page of the team's members in joining order (then by user id), `limit + 1` rows, walking
 * team_members_team_joined; `search` keeps those whose name or email contains it.
 */
export async function listTeamMembers(db: Db, teamId: string, filter: { search?: string; page: CursorPage }) {
  let query = selectTeamMembers(db, teamId);
  if (filter.search) {
    const term = `%${filter.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([eb(eb.fn('lower', ['users.name']), 'like', term), eb(eb.fn('lower', ['users.email']), 'like', term)]),
    );
  }
  return inKeysetOrder(query, ['team_members.joined_at', 'team_members.user_id'], filter.page.after)

    .limit(filter.page.limit + 1)
    .execute();
}

/** One member with their user fields. */
export async function findTeamMemberWithUser(db: Db, teamId: string, userId: string) {
  return selectTeamMembers(db, teamId).where('team_members.user_id', '=', userId).executeTakeFirst();
}

export type TeamMemberRow = Awaited<ReturnType<typeof listTeamMembers>>[number];

/**
 * Serialises writers that derive something from a team's other rows (the next rule order) until
 * the transaction ends. `NO KEY UPDATE` so that inserts referencing the team are not held up.
 */
export async function lockTeamRow(trx: Transaction<DB>, organizationId: string, teamId: string): Promise<void> {
  await forNoKeyUpdate(
    trx,
    trx.selectFrom('teams').select('id').where('organization_id', '=', organizationId).where('id', '=', teamId),
  ).execute();
}
