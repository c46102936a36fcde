import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AccountAttribute, AccountAttributeValueTable } from './account-attribute.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const VALUE_COLUMNS = [
  'id',
  'organization_id',
  'attribute',
  'value',
  'icon',
  'color',
  'is_default',
  'created_at',
  'updated_at',
] as const;

/** Attributes of the organization that have ever had a value (deleted ones count: seeding happens once). */
export async function findSeededAttributes(db: Db, organizationId: string): Promise<AccountAttribute[]> {
  const rows = await db
    .selectFrom('account_attribute_values')
    .select('attribute')
    .distinct()
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.map((row) => row.attribute);
}

/** Inserts the values that clash with no live one (a concurrent seeding of the same organization is fine). */
export async function insertAttributeValuesIfAbsent(db: Db, rows: Insertable<AccountAttributeValueTable>[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db
    .insertInto('account_attribute_values')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function insertAttributeValue(db: Db, row: Insertable<AccountAttributeValueTable>): Promise<void> {
  await db.insertInto('account_attribute_values').values(row).execute();
}

/** Live values of the organization, of one attribute or of all; in creation order. */
export async function listAttributeValues(db: Db, organizationId: string, attribute?: AccountAttribute) {
  let query = db
    .selectFrom('account_attribute_values')
    .select(VALUE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  if (attribute) {
    query = query.where('attribute', '=', attribute);
  }
  return query.orderBy('id').execute();
}

export type AttributeValueRow = Awaited<ReturnType<typeof listAttributeValues>>[number];

export async function findAttributeValueById(db: Db, organizationId: string, id: string): Promise<AttributeValueRow | undefined> {
  return db
    .selectFrom('account_attribute_values')
    .select(VALUE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The live value of the attribute spelled `value`, case-insensitively. Compared here rather than
 * with SQL `lower()`, which folds only ASCII letters on SQLite; an attribute has few values.
 */
export async function findAttributeValueByName(db: Db, organizationId: string, attribute: AccountAttribute, value: string) {
  const wanted = value.toLowerCase();
  const rows = await db
    .selectFrom('account_attribute_values')
    .select(VALUE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('attribute', '=', attribute)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.find((row) => row.value.toLowerCase() === wanted);
}

export async function updateAttributeValue(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<AccountAttributeValueTable>,
): Promise<void> {
  await db
    .updateTable('account_attribute_values')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** Takes the default flag off the attribute's current default, so another value can take it. */
export async function clearAttributeDefault(db: Db, organizationId: string, attribute: AccountAttribute, at: string) {
  await db
    .updateTable('account_attribute_values')
    .set({ is_default: false, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where('attribute', '=', attribute)
    .where('is_default', '=', true)
    .where('deleted_at', 'is', null)
    .execute();
}
