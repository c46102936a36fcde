import type { Kysely } from 'kysely';
import type { DB } from '../src/db/database.js';
import type { Clock } from '../src/lib/clock.js';
import type { IdFactory } from '../src/lib/ids.js';
import { createOrganizationWithAdmin } from '../src/platform/organizations/organization.service.js';
import { defaultTeamConfiguration } from '../src/platform/team-configurations/team-configuration.defaults.js';
import { insertTeam, insertTeamMember } from '../src/platform/teams/team.repository.js';
import { issueApiKey } from '../src/platform/users/api-key.service.js';
import { insertUser } from '../src/platform/users/user.repository.js';
import type { UserType } from '../src/platform/users/user.table.js';

interface FactoryDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

let sequence = 0;
const next = () => ++sequence;

export interface TestOrganization {
  organizationId: string;
  userId: string;
  apiKey: string;
  apiKeyPrefix: string;
  /** Headers that authenticate as the organization's admin. */
  headers: { 'x-api-key': string };
}

export async function makeOrganization(
  deps: FactoryDeps,
  overrides: { name?: string; adminEmail?: string } = {},
): Promise<TestOrganization> {
  const n = next();
  const created = await createOrganizationWithAdmin(deps, {
    name: overrides.name ?? `Organization ${n}`,
    adminEmail: overrides.adminEmail ?? `admin${n}@example.com`,
    adminName: `Admin ${n}`,
  });
  return { ...created, headers: { 'x-api-key': created.apiKey } };
}

export async function makeUser(
  deps: FactoryDeps,
  organizationId: string,
  overrides: { name?: string; email?: string; userType?: UserType } = {},
): Promise<{ userId: string; apiKey: string; apiKeyPrefix: string; headers: { 'x-api-key': string } }> {
  const n = next();
  const at = deps.clock.now().toISOString();
  const userId = deps.ids.ulid();
  await insertUser(deps.db, {
    id: userId,
    organization_id: organizationId,
    name: overrides.name ?? `User ${n}`,
    email: overrides.email ?? `user${n}@example.com`,
    user_type: overrides.userType ?? 'ORG_MEMBER',
    avatar_url: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  const key = await issueApiKey(deps.db, deps, { organizationId, userId });
  return { userId, apiKey: key.apiKey, apiKeyPrefix: key.prefix, headers: { 'x-api-key': key.apiKey } };
}

export interface TestTeam {
  teamId: string;
  identifier: string;
  name: string;
}

/**
 * A team made straight in the database, as `POST /v1/teams` would: its default configuration
 * and its owner as an admin member. `parentTeamId` makes a sub-team.
 */
export async function makeTeam(
  deps: FactoryDeps,
  owner: { organizationId: string; userId: string },
  overrides: { name?: string; identifier?: string; parentTeamId?: string; isPrivate?: boolean } = {},
): Promise<TestTeam> {
  const n = next();
  const at = deps.clock.now().toISOString();
  const teamId = deps.ids.ulid();
  const name = overrides.name ?? `Team ${n}`;
  const identifier = overrides.identifier ?? `T${n}`;
  await insertTeam(deps.db, {
    id: teamId,
    organization_id: owner.organizationId,
    name,
    identifier,
    description: null,
    icon: null,
    color: null,
    parent_team_id: overrides.parentTeamId ?? null,
    is_private: overrides.isPrivate ?? false,
    owner_id: owner.userId,
    created_at: at,
    updated_at: at,
    archived_at: null,
  });
  await deps.db
    .insertInto('team_configurations')
    .values(defaultTeamConfiguration(teamId, owner.organizationId, at))
    .execute();
  await insertTeamMember(deps.db, {
    team_id: teamId,
    user_id: owner.userId,
    organization_id: owner.organizationId,
    is_admin: true,
    invited_by_id: null,
    joined_at: at,
  });
  return { teamId, identifier, name };
}

type TestUser = Awaited<ReturnType<typeof makeUser>>;

/**
 * Three members of the organization around a team: one who manages it (a team admin), one who
 * belongs to it without managing it, and one outside it. For the checks of who may change a team's
 * settings.
 */
export async function makeTeamPeople(
  deps: FactoryDeps,
  organizationId: string,
  teamId: string,
): Promise<{ manager: TestUser; member: TestUser; outsider: TestUser }> {
  const [manager, member, outsider] = [
    await makeUser(deps, organizationId, { name: 'Team manager' }),
    await makeUser(deps, organizationId, { name: 'Team member' }),
    await makeUser(deps, organizationId, { name: 'Outsider' }),
  ];
  const joined_at = deps.clock.now().toISOString();
  for (const [user, is_admin] of [
    [manager, true],
    [member, false],
  ] as const) {
    await insertTeamMember(deps.db, {
      team_id: teamId,
      user_id: user.userId,
      organization_id: organizationId,
      is_admin,
      invited_by_id: null,
      joined_at,
    });
  }
  return { manager, member, outsider };
}
