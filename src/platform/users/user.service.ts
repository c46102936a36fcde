import type { Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { IANAZone } from 'luxon';
import type { DB } from '../../db/database.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { endSignInsOfUser } from '../auth/end-sign-ins.js';
import { ACCESS_DENIED, isOrgAdmin, requireOrgAdmin } from '../authorization.js';
import { findOrganization } from '../organizations/organization.lookup.js';
import { assignWaitingTicketsServedBy } from '../routing/routing.pipeline.js';
import { listApiKeysOfUser, revokeApiKeyByPrefix } from './api-key.repository.js';
import { issueApiKey } from './api-key.service.js';
import { toUser } from './user.presenter.js';
import {
  findUserById,
  findUsersByEmail,
  insertUser,
  listUsers,
  lockEnabledAdmins,
  type UserRow,
  updateUser,
} from './user.repository.js';
import type {
  CreateApiKeySchema,
  CreateUserSchema,
  ListApiKeysQuerySchema,
  ListUsersQuerySchema,
  UpdateUserSchema,
} from './user.schemas.js';
import type { UserTable } from './user.table.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/** For changes to who a key's caller is: told once they commit, so that no process keeps trusting a cached key. */
interface CredentialsDeps {
  /** See `AppDeps.credentialsChanged`; a CLI process calls `announceCredentialsChanged`. */
  credentialsChanged(userId: string): Promise<void>;
}

export async function requireUser(db: Kysely<DB>, organizationId: string, userId: string): Promise<UserRow> {
  const user = await findUserById(db, organizationId, userId);
  if (!user) {
    throw AppError.notFound('User not found!');
  }
  return user;
}

/** The caller's own user and organization. */
export async function getMe(db: Kysely<DB>, principal: Pick<Principal, 'organizationId' | 'userId'>) {
  const [user, organization] = await Promise.all([
    requireUser(db, principal.organizationId, principal.userId),
    findOrganization(db, principal.organizationId),
  ]);
  if (!organization) {
    throw AppError.notFound('Organization not found!');
  }
  return {
    user: toUser(user),
    organization: {
      id: organization.id,
      name: organization.name,
      createdAt: organization.created_at,
      updatedAt: organization.updated_at,
    },
  };
}

export async function createUser(deps: Deps, principal: Principal, input: Static<typeof CreateUserSchema>) {
  requireOrgAdmin(principal);
  return addUserToOrganization(deps, principal.organizationId, input);
}

/** The rules of a new user, whoever asks: an admin over HTTP, or the operator with `switchboard users create`. */
export async function addUserToOrganization(deps: Deps, organizationId: string, input: Static<typeof CreateUserSchema>) {
  const existing = await findUsersByEmail(deps.db, input.email, organizationId);
  if (existing.length > 0) {
    throw AppError.conflict('User with this email already exists!');
  }
  const at = deps.clock.now().toISOString();
  const id = deps.ids.ulid();
  await insertUser(deps.db, {
    id,
    organization_id: organizationId,
    name: input.name.trim(),
    email: input.email,
    user_type: input.userType ?? 'ORG_MEMBER',
    avatar_url: input.avatarUrl ?? null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  return toUser(await requireUser(deps.db, organizationId, id));
}

/**
 * The first admin of an organization being created, in the transaction that creates it: named by
 * `name`, else by the email's local part.
 */
export async function insertFirstAdmin(
  trx: Kysely<DB> | Transaction<DB>,
  admin: { id: string; organizationId: string; name: string | undefined; email: string; at: string },
): Promise<void> {
  await insertUser(trx, {
    id: admin.id,
    organization_id: admin.organizationId,
    name: admin.name ?? admin.email.split('@')[0] ?? admin.email,
    email: admin.email,
    user_type: 'ORG_ADMIN',
    avatar_url: null,
    created_at: admin.at,
    updated_at: admin.at,
    deleted_at: null,
  });
}

/** A page of the organization's users, oldest first (then by id), by `page` or by `cursor`. */
export async function listOrganizationUsers(db: Kysely<DB>, principal: Principal, query: Static<typeof ListUsersQuerySchema>) {
  const page = readListPage(query, query.limit ?? 100, 2);
  const rows = await listUsers(db, principal.organizationId, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toUser), nextCursor };
}

export async function getUser(db: Kysely<DB>, principal: Principal, userId: string) {
  return toUser(await requireUser(db, principal.organizationId, userId));
}

/**
 * Admins may change anyone; a member only themself. Only admins change a role or disable or enable
 * a user (never disabling themselves), and the organization always keeps an enabled admin.
 */
export async function updateUserProfile(
  // Assigning waiting tickets emails their new assignees.
  deps: Deps & TicketEmailDeps & CredentialsDeps,
  principal: Principal,
  userId: string,
  input: Static<typeof UpdateUserSchema>,
) {
  const user = await requireUser(deps.db, principal.organizationId, userId);
  checkProfileChange(principal, user, input);
  const changes = profileChanges(input, user, deps.clock.now().toISOString());
  await deps.db.transaction().execute(async (trx) => {
    const stopsBeingAdmin = input.userType === 'ORG_MEMBER' || input.disabled === true;
    if (stopsBeingAdmin && user.user_type === 'ORG_ADMIN') {
      await keepAnotherAdmin(trx, principal.organizationId, user.id, input.userType === 'ORG_MEMBER' ? 'userType' : 'disabled');
    }
    await updateUser(trx, principal.organizationId, user.id, changes);
    if (input.disabled === true) {
      // Signed-in browsers stop at their next request, and no link can set a password meanwhile.
      await endSignInsOfUser(trx, deps.clock, user.id);
    }
  });
  const roleChanged = input.userType !== undefined && input.userType !== user.user_type;
  const disabledChanged = input.disabled !== undefined && input.disabled !== (user.disabled_at !== null);
  if (roleChanged || disabledChanged) {
    // Its keys' cached callers carry the old role, or still pass though the user is disabled.
    await deps.credentialsChanged(user.id);
  }
  const becameOnline = input.status === 'online' && user.status !== 'online';
  const enabled = input.disabled === false && user.disabled_at !== null;
  if (becameOnline || enabled || input.capacity !== undefined || input.timezone !== undefined) {
    // The member may be eligible now: waiting tickets of their teams are assigned oldest first.
    await assignWaitingTicketsServedBy(deps, principal.organizationId, user.id, 'member_available');
  }
  return toUser(await requireUser(deps.db, principal.organizationId, user.id));
}

function checkProfileChange(principal: Principal, user: UserRow, input: Static<typeof UpdateUserSchema>): void {
  if (!isOrgAdmin(principal) && principal.userId !== user.id) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  if (input.userType !== undefined) {
    requireOrgAdmin(principal);
  }
  if (input.disabled !== undefined) {
    requireOrgAdmin(principal);
    if (user.id === principal.userId) {
      throw AppError.forbidden('You cannot disable or enable yourself');
    }
  }
  if (input.timezone && !IANAZone.isValidZone(input.timezone)) {
    throw AppError.invalid('timezone must be a valid IANA time zone', { location: 'body', path: ['timezone'], rule: 'timezone' });
  }
}

function profileChanges(input: Static<typeof UpdateUserSchema>, user: UserRow, at: string): Updateable<UserTable> {
  const changes: Updateable<UserTable> = { updated_at: at };
  if (input.name !== undefined) {
    changes.name = input.name.trim();
  }
  if (input.status !== undefined) {
    changes.status = input.status;
  }
  if (input.capacity !== undefined) {
    changes.capacity = input.capacity;
  }
  if (input.timezone !== undefined) {
    changes.timezone = input.timezone;
  }
  if (input.avatarUrl !== undefined) {
    changes.avatar_url = input.avatarUrl;
  }
  if (input.userType !== undefined) {
    changes.user_type = input.userType;
  }
  if (input.disabled === true && user.disabled_at === null) {
    changes.disabled_at = at;
  } else if (input.disabled === false) {
    changes.disabled_at = null;
  }
  return changes;
}

/** Refuses a change that would leave the organization without an enabled admin (checked under the admins' row locks). */
async function keepAnotherAdmin(trx: Transaction<DB>, organizationId: string, userId: string, field: 'userType' | 'disabled') {
  const admins = await lockEnabledAdmins(trx, organizationId);
  if (!admins.some((id) => id !== userId)) {
    throw AppError.invalid(
      `${field} cannot change: this is the organization's last enabled admin; make another user an admin first`,
      { location: 'body', path: [field], rule: 'lastAdmin' },
    );
  }
}

/**
 * A key is personal, as the upstream's preferences page makes it: admins issue one for anyone, a
 * member for themself only (it can do no more than they can).
 */
export async function createUserApiKey(
  deps: Deps,
  principal: Principal,
  userId: string,
  input: Static<typeof CreateApiKeySchema> = {},
) {
  const user = await requireUser(deps.db, principal.organizationId, userId);
  if (!isOrgAdmin(principal) && principal.userId !== user.id) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  return issueApiKey(deps.db, deps, { organizationId: principal.organizationId, userId: user.id, name: input.name });
}

/** Keys are listed by prefix only; the secret is never stored. Admins or the user themself. */
export async function listUserApiKeys(
  db: Kysely<DB>,
  principal: Principal,
  userId: string,
  query: Static<typeof ListApiKeysQuerySchema>,
) {
  const user = await requireUser(db, principal.organizationId, userId);
  if (!isOrgAdmin(principal) && principal.userId !== user.id) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  const page = readListPage(query, query.limit ?? 100, 2);
  const rows = await listApiKeysOfUser(db, principal.organizationId, user.id, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return {
    items: items.map((row) => ({
      prefix: row.prefix,
      name: row.name,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    })),
    nextCursor,
  };
}

export async function revokeUserApiKey(deps: Deps & CredentialsDeps, principal: Principal, userId: string, prefix: string) {
  const user = await requireUser(deps.db, principal.organizationId, userId);
  if (!isOrgAdmin(principal) && principal.userId !== user.id) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  const revokedAt = deps.clock.now().toISOString();
  const revoked = await revokeApiKeyByPrefix(deps.db, prefix, revokedAt, {
    organizationId: principal.organizationId,
    userId: user.id,
  });
  if (revoked.length === 0) {
    throw AppError.notFound('API key not found!');
  }
  await deps.credentialsChanged(user.id);
  return { prefix, revokedAt };
}
