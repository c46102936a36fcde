import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { UserTable } from './user.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const USER_COLUMNS = ['id', 'organization_id', 'name', 'email', 'user_type', 'avatar_url', 'created_at', 'updated_at'] as const;

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

/** Users with this email in any organization (the CLI may need to ask which one). */
export async function findUsersByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export type UserRow = Awaited<ReturnType<typeof findUserById>> & {};
