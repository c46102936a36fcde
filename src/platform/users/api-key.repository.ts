import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { ApiKeyTable } from './api-key.table.js';
import type { UserType } from './user.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertApiKey(db: Db, row: ApiKeyTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export interface KeyPrincipalRow {
  apiKeyId: string;
  apiKeyPrefix: string;
  organizationId: string;
  userId: string;
  userType: UserType;
}

/** The live key with this hash, its user still present and not disabled. */
export async function findPrincipalByKeyHash(db: Db, keyHash: string): Promise<KeyPrincipalRow | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as apiKeyId',
      'api_keys.prefix as apiKeyPrefix',
      'api_keys.organization_id as organizationId',
      'users.id as userId',
      'users.user_type as userType',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Records a use of the key, unless another request (of any process) already did since
 * `staleBefore`: one conditional UPDATE, no read first, so busy keys write once a minute.
 */
export async function touchApiKey(db: Db, apiKeyId: string, at: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', apiKeyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

/** Revokes a live key by prefix; scoped to an organization when one is given. Returns the owners of the keys revoked. */
export async function revokeApiKeyByPrefix(
  db: Db,
  prefix: string,
  revokedAt: string,
  scope: { organizationId?: string; userId?: string } = {},
): Promise<string[]> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: revokedAt })
    .where('prefix', '=', prefix)
    .where('revoked_at', 'is', null);
  if (scope.organizationId) {
    query = query.where('organization_id', '=', scope.organizationId);
  }
  if (scope.userId) {
    query = query.where('user_id', '=', scope.userId);
  }
  const rows = await query.returning('user_id').execute();
  return rows.map((row) => row.user_id);
}

/** A page of the user's keys, oldest first, after the `after` keys; `limit + 1` rows tell that a next page exists. */
export async function listApiKeysOfUser(
  db: Db,
  organizationId: string,
  userId: string,
  page: { after?: CursorKey[]; limit: number },
) {
  const query = db
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId);
  return inKeysetOrder(query, ['created_at', 'id'], page.after)

    .limit(page.limit + 1)
    .execute();
}

/**
 * Keys across the installation with their owner's email (the CLI's `keys list`), oldest first;
 * narrowed to an organization and/or a set of users when given. Never the hash.
 */
export async function listApiKeysWithOwners(db: Db, filter: { organizationId?: string; userIds?: readonly string[] } = {}) {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.prefix',
      'api_keys.organization_id',
      'api_keys.user_id',
      'users.email',
      'api_keys.created_at',
      'api_keys.revoked_at',
    ]);
  if (filter.organizationId) {
    query = query.where('api_keys.organization_id', '=', filter.organizationId);
  }
  if (filter.userIds) {
    if (filter.userIds.length === 0) {
      return [];
    }
    query = query.where('api_keys.user_id', 'in', filter.userIds);
  }
  return query.orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
}
