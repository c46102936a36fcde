import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { UserTable } from './user.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const USER_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'email',
  'user_type',
  'avatar_url',
  'status',
  'capacity',
  'timezone',
  'disabled_at',
  'created_at',
  'updated_at',
] as const;

export async function insertUser(db: Db, row: Insertable<UserTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function findUserById(db: Db, organizationId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** A live user by id, whatever its organization (the CLI, which acts for the operator of every organization). */
export async function findUserByIdInAnyOrganization(db: Db, userId: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Users with this email in any organization (the CLI may need to ask which one). */
export async function findUsersByEmail(db: Db, email: string, organizationId?: string) {
  let query = db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null);
  if (organizationId) {
    query = query.where('organization_id', '=', organizationId);
  }
  return query.orderBy('created_at').execute();
}

/**
 * One page of the organization's users, oldest first, and the first user of the next page if any
 * (`limit + 1` rows). The page's ids come from the index alone (users_live_organization_created),
 * however deep the page; only their rows are read.
 */
export async function listUsers(db: Db, organizationId: string, page: ListPage) {
  const ids = db
    .selectFrom('users')
    .select(['id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  return db
    .selectFrom(
      inKeysetOrder(ids, ['created_at', 'id'], page.after)

        .limit(page.limit + 1)
        .offset(page.offset)
        .as('page'),
    )
    .innerJoin('users', 'users.id', 'page.id')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .orderBy('page.created_at')
    .orderBy('page.id')
    .execute();
}

export async function updateUser(db: Db, organizationId: string, userId: string, changes: Updateable<UserTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('organization_id', '=', organizationId).where('id', '=', userId).execute();
}

/**
 * The organization's enabled admins, their rows locked until the transaction ends, so that two
 * changes that each leave "another admin" cannot both pass: the second sees the first's result.
 */
export async function lockEnabledAdmins(trx: Transaction<DB>, organizationId: string): Promise<string[]> {
  const rows = await forUpdate(
    trx,
    trx
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('user_type', '=', 'ORG_ADMIN')
      .where('disabled_at', 'is', null)
      .where('deleted_at', 'is', null)
      .orderBy('id'),
  ).execute();
  return rows.map((row) => row.id);
}

/** The organization's enabled admins, with their email: whom a broken integration is reported to. */
export function findEnabledAdmins(db: Db, organizationId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('organization_id', '=', organizationId)
    .where('user_type', '=', 'ORG_ADMIN')
    .where('disabled_at', 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}
