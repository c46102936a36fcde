import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { findEnabledAdmins, findUserById, findUsersByEmail, type UserRow } from './user.repository.js';

// How other features look up a user: in their own transaction, and without user.service (which
// reaches the routing engine, so importing it from below routing would make a cycle).

/** The live (not deleted) user `userId` of the organization, or undefined. */
export async function findLiveUser(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  userId: string,
): Promise<UserRow | undefined> {
  return findUserById(db, organizationId, userId);
}

/** The live user of the organization with this email (compared case-insensitively), or undefined. */
export async function findLiveUserByEmail(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  email: string,
): Promise<UserRow | undefined> {
  return (await findUsersByEmail(db, email, organizationId))[0];
}

/**
 * The id of the live user of the organization that `ref` names, by id or by email (any case);
 * undefined when it names none (another organization's user included). What other features check
 * a user reference with (a ticket's assignee, a list's assignee filter).
 */
export async function findOrganizationUserId(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  ref: { id: string } | { email: string },
): Promise<string | undefined> {
  if ('id' in ref) {
    return (await findUserById(db, organizationId, ref.id))?.id;
  }
  const [user] = await findUsersByEmail(db, ref.email, organizationId);
  return user?.id;
}

/** The organization's enabled admins (id, email, name): whom a channel reports its trouble to. */
export async function listOrganizationAdmins(db: Kysely<DB> | Transaction<DB>, organizationId: string) {
  return findEnabledAdmins(db, organizationId);
}
