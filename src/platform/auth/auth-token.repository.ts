import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AuthTokenPurpose, UserAuthTokenTable } from './auth.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertAuthToken(db: Db, row: Insertable<UserAuthTokenTable>): Promise<void> {
  await db.insertInto('user_auth_tokens').values(row).execute();
}

/**
 * Forgets the user's links that can no longer be used for anything but an error message: unused
 * ones (a newer link supersedes them, or the user is disabled) and expired ones. Used links are
 * kept until they expire, so that following one again says it was used.
 */
export async function deleteOpenAuthTokensOfUser(db: Db, userId: string, now: string): Promise<void> {
  await db
    .deleteFrom('user_auth_tokens')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('used_at', 'is', null), eb('expires_at', '<=', now)]))
    .execute();
}

/**
 * Uses the link: one conditional UPDATE, so that of two requests (or processes) presenting the
 * same token only one gets its user back.
 */
export async function consumeAuthToken(db: Db, tokenHash: string, purpose: AuthTokenPurpose, now: string) {
  return db
    .updateTable('user_auth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'organization_id', 'user_id'])
    .executeTakeFirst();
}

/** A link's state and its user's email: to check a new password before the link is used, and to word a refusal. */
export async function findAuthToken(db: Db, tokenHash: string, purpose: AuthTokenPurpose) {
  return db
    .selectFrom('user_auth_tokens')
    .innerJoin('users', 'users.id', 'user_auth_tokens.user_id')
    .select([
      'user_auth_tokens.organization_id',
      'user_auth_tokens.user_id',
      'users.email',
      'user_auth_tokens.used_at',
      'user_auth_tokens.expires_at',
    ])
    .where('user_auth_tokens.token_hash', '=', tokenHash)
    .where('user_auth_tokens.purpose', '=', purpose)
    .executeTakeFirst();
}
