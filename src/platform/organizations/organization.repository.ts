import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forNoKeyUpdate } from '../../db/dialect.js';
import type { OrganizationTable } from './organization.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertOrganization(db: Db, row: OrganizationTable): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function findOrganizationById(db: Db, id: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The organization's row, held until the transaction ends (PostgreSQL; SQLite runs one writer at a
 * time). `NO KEY UPDATE`, so that rows referencing the organization are still inserted meanwhile.
 */
export async function lockOrganizationRow(trx: Transaction<DB>, id: string) {
  return forNoKeyUpdate(trx, trx.selectFrom('organizations').select(['id']).where('id', '=', id)).executeTakeFirst();
}

export async function countOrganizations(db: Db): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Claims a once-per-installation step; true only for the one caller that claimed it. */
export async function claimInstanceSetting(db: Db, key: string, value: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('instance_settings')
    .values({ key, value, created_at: at })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Every organization of the installation, oldest first (the CLI's `orgs list`). */
export async function listOrganizations(db: Db) {
  return db.selectFrom('organizations').select(['id', 'name', 'created_at']).orderBy('created_at').orderBy('id').execute();
}
