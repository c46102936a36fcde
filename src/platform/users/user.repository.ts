import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
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

export async function listUsers(db: Db, organizationId: string, page: { offset: number; limit: number }) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function updateUser(db: Db, organizationId: string, userId: string, changes: Updateable<UserTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('organization_id', '=', organizationId).where('id', '=', userId).execute();
}
