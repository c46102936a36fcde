import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The users an email may sign in as: live, with a password, in any organization (or in the one
 * named). The only read of password hashes.
 */
export async function findSignInCandidates(db: Db, email: string, organizationId?: string) {
  let query = db
    .selectFrom('users')
    .select(['id', 'organization_id', 'email', 'password_hash', 'disabled_at'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .where('password_hash', 'is not', null);
  if (organizationId) {
    query = query.where('organization_id', '=', organizationId);
  }
  return query.orderBy('created_at').orderBy('id').limit(SIGN_IN_CANDIDATES_MAX).execute();
}

/** More organizations than anyone belongs to with one email: bounds the password checks of one sign-in. */
export const SIGN_IN_CANDIDATES_MAX = 20;

/** Live users with this email and a password (password-reset requests), with their organization's name. */
export async function findUsersWithPasswordByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.organization_id', 'users.email', 'users.name', 'organizations.name as organization_name'])
    .where(sql<string>`lower(users.email)`, '=', email.toLowerCase())
    .where('users.deleted_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .where('users.password_hash', 'is not', null)
    .orderBy('users.created_at')
    .limit(SIGN_IN_CANDIDATES_MAX)
    .execute();
}

/**
 * The user's row locked until the transaction ends, so that a credential change (a new link, a
 * new password, disabling) of one user runs after another's, never interleaved.
 */
export async function lockUserForCredentials(db: Transaction<DB>, organizationId: string, userId: string) {
  return forNoKeyUpdate(
    db,
    db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'user_type', 'disabled_at'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', userId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}

export async function setUserPassword(db: Db, userId: string, passwordHash: string, changedAt: string | null): Promise<void> {
  await db
    .updateTable('users')
    .set(changedAt ? { password_hash: passwordHash, password_changed_at: changedAt } : { password_hash: passwordHash })
    .where('id', '=', userId)
    .execute();
}
