import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { firstFreeValue, insertUnderFreeValue } from '../../lib/free-value.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { ACCESS_DENIED, isOrgAdmin, requireOrgAdmin } from '../authorization.js';
import { defaultTeamConfiguration } from '../team-configurations/team-configuration.defaults.js';
import { findLiveUser, findLiveUserByEmail } from '../users/user.lookup.js';
import { requireTeam } from './team.lookup.js';
import { toMember, toTeam } from './team.presenter.js';
import {
  countActiveSubTeams,
  deleteTeamMember,
  findTeamById,
  findTeamByIdentifier,
  findTeamIdentifiersStartingWith,
  findTeamMember,
  findTeamMemberWithUser,
  insertTeamMember,
  insertTeamUnlessIdentifierTaken,
  listTeamMembers,
  listTeams,
  type TeamRow,
  updateTeam,
} from './team.repository.js';
import type {
  AddTeamMemberSchema,
  CreateTeamSchema,
  ListTeamMembersQuery,
  ListTeamsQuery,
  UpdateTeamSchema,
} from './team.schemas.js';
import type { TeamTable } from './team.table.js';

const IDENTIFIER_TAKEN = 'Team with this identifier already exists!';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Organization admins and the team's own admins may change a team, its members and everything
 * that is the team's (configuration, routing rules, tags); anyone else gets the platform's 403.
 */
export async function requireTeamManager(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  team: Pick<TeamRow, 'id'>,
): Promise<void> {
  if (isOrgAdmin(principal)) {
    return;
  }
  const membership = await findTeamMember(db, team.id, principal.userId);
  if (!membership || !readBoolean(membership.is_admin)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
}

/** The active team `teamId`, once the caller is shown to manage it: a 404 first, then the 403. */
export async function requireManagedTeam(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  teamId: string,
): Promise<TeamRow> {
  const team = await requireTeam(db, principal.organizationId, teamId);
  await requireTeamManager(db, principal, team);
  return team;
}

/** `Customer Success` → `CS`, `Billing` → `BIL`: the identifier a name suggests, before `CS2`, `CS3`… */
function identifierBase(name: string): string {
  const words = name.toUpperCase().match(/[A-Z0-9]+/g) ?? [];
  const base =
    words.length >= 2
      ? words
          .slice(0, 3)
          .map((word) => word[0])
          .join('')
      : (words[0] ?? '').slice(0, 3);
  return /^[A-Z]/.test(base) ? base : `T${base}`.slice(0, 8);
}

/** The base, else `CS2`, `CS3`…: the first one no team of the organization has (archived ones included). */
async function nextFreeIdentifier(db: Kysely<DB>, organizationId: string, base: string): Promise<string> {
  return firstFreeValue(base, await findTeamIdentifiersStartingWith(db, organizationId, base), '');
}

async function requireFreeIdentifier(db: Kysely<DB>, organizationId: string, identifier: string, teamId?: string) {
  const taken = await findTeamByIdentifier(db, organizationId, identifier);
  if (taken && taken.id !== teamId) {
    throw AppError.conflict(IDENTIFIER_TAKEN);
  }
}

/** Teams are the organization's structure: admins make them (and become their owner and first manager). */
export async function createTeam(deps: Deps, principal: Principal, input: Static<typeof CreateTeamSchema>) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  if (input.parentTeamId) {
    const parent = await deps.db
      .selectFrom('teams')
      .select(['id', 'parent_team_id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', input.parentTeamId)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!parent) {
      throw AppError.invalid('parentTeamId must be an active team of the organization', {
        location: 'body',
        path: ['parentTeamId'],
        rule: 'reference',
      });
    }
    if (parent.parent_team_id) {
      throw AppError.invalid('parentTeamId must be a top-level team: sub-teams nest one level', {
        location: 'body',
        path: ['parentTeamId'],
        rule: 'reference',
      });
    }
  }
  const at = deps.clock.now().toISOString();
  const id = deps.ids.ulid();
  const insert = (identifier: string) => insertTeamWithDefaults(deps, principal, input, { id, identifier, at });
  if (input.identifier) {
    // Only an identifier the caller chose can clash: a 409, whether the check or the insert finds it taken.
    const identifier = input.identifier.toUpperCase();
    await requireFreeIdentifier(deps.db, organizationId, identifier);
    if (!(await insert(identifier))) {
      throw AppError.conflict(IDENTIFIER_TAKEN);
    }
  } else {
    // A derived one never fails: a concurrent create that takes it first makes this one try the next.
    const base = identifierBase(input.name);
    await insertUnderFreeValue(() => nextFreeIdentifier(deps.db, organizationId, base), insert);
  }
  return toTeam(await requireTeam(deps.db, organizationId, id));
}

async function insertTeamWithDefaults(
  deps: Deps,
  principal: Principal,
  input: Static<typeof CreateTeamSchema>,
  row: { id: string; identifier: string; at: string },
): Promise<boolean> {
  const organizationId = principal.organizationId;
  const { id, identifier, at } = row;
  return inTransaction(deps.db, async (trx: Transaction<DB>) => {
    const inserted = await insertTeamUnlessIdentifierTaken(trx, {
      id,
      organization_id: organizationId,
      name: input.name.trim(),
      identifier,
      description: input.description ?? null,
      icon: input.icon ?? null,
      color: input.color ?? null,
      parent_team_id: input.parentTeamId ?? null,
      is_private: input.isPrivate ?? false,
      owner_id: principal.userId,
      created_at: at,
      updated_at: at,
      archived_at: null,
    });
    if (!inserted) {
      return false;
    }
    await trx
      .insertInto('team_configurations')
      .values(defaultTeamConfiguration(id, organizationId, at))
      .execute();
    await insertTeamMember(trx, {
      team_id: id,
      user_id: principal.userId,
      organization_id: organizationId,
      is_admin: true,
      invited_by_id: null,
      joined_at: at,
    });
    return true;
  });
}

/** A page of teams, oldest first (then by id): public ones and the private ones the caller belongs to; admins see every team. */
export async function listVisibleTeams(db: Kysely<DB>, principal: Principal, query: ListTeamsQuery) {
  const page = readListPage(query, query.limit ?? 100, 2);
  const filter = isOrgAdmin(principal) ? {} : { memberUserId: principal.userId };
  return teamPage(await listTeams(db, principal.organizationId, filter, page), page.limit);
}

function teamPage(rows: TeamRow[], limit: number) {
  const { items, nextCursor } = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toTeam), nextCursor };
}

export async function getTeam(db: Kysely<DB>, principal: Principal, teamId: string) {
  return toTeam(await requireTeam(db, principal.organizationId, teamId));
}

/** A page of a team's active sub-teams, oldest first (then by id). */
export async function listSubTeams(db: Kysely<DB>, principal: Principal, teamId: string, query: ListTeamsQuery) {
  const team = await requireTeam(db, principal.organizationId, teamId);
  const page = readListPage(query, query.limit ?? 100, 2);
  return teamPage(await listTeams(db, principal.organizationId, { parentTeamId: team.id }, page), page.limit);
}

export async function updateTeamDetails(
  deps: Deps,
  principal: Principal,
  teamId: string,
  input: Static<typeof UpdateTeamSchema>,
) {
  const team = await requireTeam(deps.db, principal.organizationId, teamId);
  await requireTeamManager(deps.db, principal, team);
  const changes: Updateable<TeamTable> = { updated_at: deps.clock.now().toISOString() };
  if (input.identifier !== undefined) {
    changes.identifier = input.identifier.toUpperCase();
    await requireFreeIdentifier(deps.db, principal.organizationId, changes.identifier, team.id);
  }
  if (input.name !== undefined) {
    changes.name = input.name.trim();
  }
  for (const key of ['description', 'icon', 'color'] as const) {
    if (input[key] !== undefined) {
      changes[key] = input[key];
    }
  }
  if (input.isPrivate !== undefined) {
    changes.is_private = input.isPrivate;
  }
  await updateTeam(deps.db, principal.organizationId, team.id, changes).catch(conflictAs(IDENTIFIER_TAKEN));
  return toTeam(await requireTeam(deps.db, principal.organizationId, team.id));
}

/** Archiving keeps the team's tickets and identifier; active sub-teams must go first. */
export async function archiveTeam(deps: Deps, principal: Principal, teamId: string) {
  const team = await requireTeam(deps.db, principal.organizationId, teamId);
  await requireTeamManager(deps.db, principal, team);
  const subTeams = await countActiveSubTeams(deps.db, team.id);
  if (subTeams > 0) {
    throw AppError.conflict(`Team has ${subTeams} active sub-team(s); archive them first!`);
  }
  const at = deps.clock.now().toISOString();
  await updateTeam(deps.db, principal.organizationId, team.id, { archived_at: at, updated_at: at });
  const archived = await findTeamById(deps.db, principal.organizationId, team.id, { includeArchived: true });
  if (!archived) {
    throw AppError.notFound('Team not found!');
  }
  return toTeam(archived);
}

export async function addTeamMember(deps: Deps, principal: Principal, teamId: string, input: Static<typeof AddTeamMemberSchema>) {
  const team = await requireTeam(deps.db, principal.organizationId, teamId);
  await requireTeamManager(deps.db, principal, team);
  if (!input.userId && !input.email) {
    throw AppError.invalid('email or userId is required', { location: 'body', path: ['email'], rule: 'required' });
  }
  const user = input.userId
    ? await findLiveUser(deps.db, principal.organizationId, input.userId)
    : await findLiveUserByEmail(deps.db, principal.organizationId, input.email ?? '');
  if (!user) {
    throw AppError.notFound('User not found!');
  }
  if (input.userId && input.email && user.email.toLowerCase() !== input.email.toLowerCase()) {
    throw AppError.invalid('email does not belong to userId', { location: 'body', path: ['email'], rule: 'mismatch' });
  }
  if (await findTeamMember(deps.db, team.id, user.id)) {
    throw AppError.conflict('User is already a member of this team!');
  }
  await insertTeamMember(deps.db, {
    team_id: team.id,
    user_id: user.id,
    organization_id: principal.organizationId,
    is_admin: input.isAdmin ?? false,
    invited_by_id: principal.userId,
    joined_at: deps.clock.now().toISOString(),
  });
  const member = await findTeamMemberWithUser(deps.db, team.id, user.id);
  if (!member) {
    throw AppError.notFound('User not found!');
  }
  return toMember(member, team);
}

/** A page of the team's members in joining order (then by user id); `search` matches part of a name or email. */
export async function listMembers(db: Kysely<DB>, principal: Principal, teamId: string, query: ListTeamMembersQuery) {
  const team = await requireTeam(db, principal.organizationId, teamId);
  const page = readListPage(query, query.limit ?? 100, 2);
  const rows = await listTeamMembers(db, team.id, { search: query.search?.trim() || undefined, page });
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.joined_at, row.id]);
  return { items: items.map((row) => toMember(row, team)), nextCursor };
}

/** Members may leave; managers may remove anyone but the owner. */
export async function removeTeamMember(deps: Deps, principal: Principal, teamId: string, userId: string) {
  const team = await requireTeam(deps.db, principal.organizationId, teamId);
  if (principal.userId !== userId) {
    await requireTeamManager(deps.db, principal, team);
  }
  const member = await findTeamMemberWithUser(deps.db, team.id, userId);
  if (!member) {
    throw AppError.notFound('Team member not found!');
  }
  if (member.id === team.owner_id) {
    throw AppError.conflict('The team owner cannot be removed from the team!');
  }
  await deleteTeamMember(deps.db, team.id, userId);
  return toMember(member, team);
}
