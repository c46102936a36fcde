import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../http/api-key-auth.js';
import { AppError } from '../../http/errors.js';
import { findOrganizationById } from '../organizations/organization.repository.js';
import { findUserById, type UserRow } from './user.repository.js';

export function toUser(row: UserRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    userType: row.user_type,
    avatarUrl: row.avatar_url,
    organizationId: row.organization_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The caller's own user and organization. */
export async function getMe(db: Kysely<DB>, principal: Principal) {
  const [user, organization] = await Promise.all([
    findUserById(db, principal.organizationId, principal.userId),
    findOrganizationById(db, principal.organizationId),
  ]);
  if (!user || !organization) {
    throw AppError.notFound('User not found!');
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
