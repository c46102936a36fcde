import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { AccountTable } from './account.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const ACCOUNT_COLUMNS = [
  'accounts.id',
  'accounts.organization_id',
  'accounts.name',
  'accounts.description',
  'accounts.source',
  'accounts.logo',
  'accounts.primary_domain',
  'accounts.secondary_domain',
  'accounts.website',
  'accounts.status_id',
  'accounts.classification_id',
  'accounts.health_id',
  'accounts.industry_id',
  'accounts.account_owner_id',
  'accounts.annual_revenue',
  'accounts.employees',
  'accounts.billing_address',
  'accounts.shipping_address',
  'accounts.metadata',
  'accounts.custom_field_values',
  'accounts.created_at',
  'accounts.updated_at',
] as const;

/** A live account with the attribute values and owner it points at. */
function selectAccounts(db: Db, organizationId: string) {
  return db
    .selectFrom('accounts')
    .leftJoin('account_attribute_values as status', 'status.id', 'accounts.status_id')
    .leftJoin('account_attribute_values as classification', 'classification.id', 'accounts.classification_id')
    .leftJoin('account_attribute_values as health', 'health.id', 'accounts.health_id')
    .leftJoin('account_attribute_values as industry', 'industry.id', 'accounts.industry_id')
    .leftJoin('users as owner', 'owner.id', 'accounts.account_owner_id')
    .select(ACCOUNT_COLUMNS)
    .select([
      'status.value as status_value',
      'status.icon as status_icon',
      'status.color as status_color',
      'classification.value as classification_value',
      'classification.icon as classification_icon',
      'classification.color as classification_color',
      'health.value as health_value',
      'health.icon as health_icon',
      'health.color as health_color',
      'industry.value as industry_value',
      'industry.icon as industry_icon',
      'industry.color as industry_color',
      'owner.name as owner_name',
      'owner.email as owner_email',
      'owner.avatar_url as owner_avatar_url',
    ])
    .where('accounts.organization_id', '=', organizationId)
    .where('accounts.deleted_at', 'is', null);
}

export type AccountRow = Awaited<ReturnType<ReturnType<typeof selectAccounts>['executeTakeFirstOrThrow']>>;

export async function insertAccount(db: Db, row: Insertable<AccountTable>): Promise<void> {
  await db.insertInto('accounts').values(row).execute();
}

export async function findAccountById(db: Db, organizationId: string, id: string): Promise<AccountRow | undefined> {
  return selectAccounts(db, organizationId).where('accounts.id', '=', id).executeTakeFirst();
}

/** The live account of the organization with the (lower-case) primary domain. */
export async function findAccountByPrimaryDomain(db: Db, organizationId: string, domain: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('primary_domain', '=', domain)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Up to two live accounts of the organization whose id is `text` or whose name is `text` (ignoring case). */
export async function findLiveAccountIdsByIdOrName(db: Db, organizationId: string, text: string): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('id', '=', text), eb(sql<string>`lower(name)`, '=', text.toLowerCase())]))
    .limit(2)
    .execute();
  return rows.map((row) => row.id);
}

/** The organization's live accounts among `ids`; unknown ids are left out. */
export async function findLiveAccountIds(db: Db, organizationId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * One page of live accounts, oldest first (then by id), and the first of the next page if any
 * (`limit + 1` rows). The page's ids come from the index alone (accounts_live_organization_created),
 * however deep the page; only their rows and what they point at are read.
 */
export async function listAccounts(db: Db, organizationId: string, page: ListPage): Promise<AccountRow[]> {
  const ids = db
    .selectFrom('accounts')
    .select(['id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  return selectAccounts(db, organizationId)
    .innerJoin(
      inKeysetOrder(ids, ['created_at', 'id'], page.after)

        .limit(page.limit + 1)
        .offset(page.offset)
        .as('page'),
      'page.id',
      'accounts.id',
    )
    .orderBy('page.created_at')
    .orderBy('page.id')
    .execute();
}

export async function updateAccount(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<AccountTable>,
): Promise<void> {
  await db.updateTable('accounts').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/**
 * The live account of a domain (lower case): the one with it as primary domain, else the oldest
 * with it as secondary domain. Where a customer writing from that domain belongs.
 */
export async function findAccountByDomain(db: Db, organizationId: string, domain: string) {
  return (
    (await findAccountByPrimaryDomain(db, organizationId, domain)) ??
    (await db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('organization_id', '=', organizationId)
      .where('secondary_domain', '=', domain)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst())
  );
}
