import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import type { UserBusinessHoursTable } from './user-business-hours.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const HOURS_COLUMNS = [
  'user_id',
  'organization_id',
  'timezone',
  'common_daily_config',
  'common_slots',
  'daily_config',
  'created_at',
  'updated_at',
] as const;

function selectHours(db: Db, organizationId: string, userId: string) {
  return db
    .selectFrom('user_business_hours')
    .select(HOURS_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId);
}

export type UserBusinessHoursRow = Awaited<ReturnType<ReturnType<typeof selectHours>['executeTakeFirstOrThrow']>>;

export async function findUserBusinessHours(db: Db, organizationId: string, userId: string) {
  return selectHours(db, organizationId, userId).executeTakeFirst();
}

/** The row, locked until the transaction ends (PostgreSQL; SQLite serialises writers). */
export async function lockUserBusinessHours(trx: Transaction<DB>, organizationId: string, userId: string) {
  return forUpdate(trx, selectHours(trx, organizationId, userId)).executeTakeFirst();
}

/** Creates the row unless the user already has one. */
export async function insertUserBusinessHoursIfMissing(db: Db, row: UserBusinessHoursTable): Promise<void> {
  await db
    .insertInto('user_business_hours')
    .values(row)
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
}

export async function updateUserBusinessHours(
  db: Db,
  organizationId: string,
  userId: string,
  changes: Updateable<UserBusinessHoursTable>,
): Promise<void> {
  await db
    .updateTable('user_business_hours')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function findUserTimezone(db: Db, organizationId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select(['timezone'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.timezone ?? null;
}

export async function updateUserTimezone(
  db: Db,
  organizationId: string,
  userId: string,
  timezone: string | null,
  updatedAt: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ timezone, updated_at: updatedAt })
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .execute();
}
