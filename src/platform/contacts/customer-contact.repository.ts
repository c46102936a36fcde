import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { CustomerContactTable } from './customer-contact.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const CONTACT_COLUMNS = ['id', 'organization_id', 'first_name', 'last_name', 'email', 'avatar_url'] as const;

export async function findLiveContactByEmail(db: Db, organizationId: string, email: string) {
  return db
    .selectFrom('customer_contacts')
    .select(CONTACT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type ContactSummaryRow = NonNullable<Awaited<ReturnType<typeof findLiveContactByEmail>>>;

/** Inserts unless a live contact with the email exists (a concurrent insert included). */
export async function insertContactIfAbsent(db: Db, row: Insertable<CustomerContactTable>): Promise<void> {
  await db
    .insertInto('customer_contacts')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A live contact with the contact type it points at. */
function selectContacts(db: Db, organizationId: string) {
  return db
    .selectFrom('customer_contacts')
    .leftJoin('account_attribute_values as contact_type', 'contact_type.id', 'customer_contacts.contact_type_id')
    .select([
      'customer_contacts.id',
      'customer_contacts.organization_id',
      'customer_contacts.first_name',
      'customer_contacts.last_name',
      'customer_contacts.email',
      'customer_contacts.phone_number',
      'customer_contacts.contact_type_id',
      'customer_contacts.avatar_url',
      'customer_contacts.metadata',
      'customer_contacts.custom_field_values',
      'customer_contacts.created_at',
      'customer_contacts.updated_at',
      'contact_type.value as contact_type_value',
    ])
    .where('customer_contacts.organization_id', '=', organizationId)
    .where('customer_contacts.deleted_at', 'is', null);
}

export type ContactRow = Awaited<ReturnType<ReturnType<typeof selectContacts>['executeTakeFirstOrThrow']>>;

export async function insertContact(db: Db, row: Insertable<CustomerContactTable>): Promise<void> {
  await db.insertInto('customer_contacts').values(row).execute();
}

export async function findContactById(db: Db, organizationId: string, id: string): Promise<ContactRow | undefined> {
  return selectContacts(db, organizationId).where('customer_contacts.id', '=', id).executeTakeFirst();
}

/**
 * Ids (and creation times) of one page of the organization's live contacts, oldest first, read
 * from the index alone (customer_contacts_live_organization_created).
 */
function contactPageIds(db: Db, organizationId: string, page: ListPage) {
  const query = db
    .selectFrom('customer_contacts')
    .select(['id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  return inKeysetOrder(query, ['created_at', 'id'], page.after)

    .limit(page.limit + 1)
    .offset(page.offset);
}

/**
 * The same for one account's contacts, read from its links alone: each link carries its contact's
 * creation time (account_contacts_account_contact_created), so the order needs no sort.
 */
function accountContactPageIds(db: Db, organizationId: string, accountId: string, page: ListPage) {
  const query = db
    .selectFrom('account_contacts')
    .select(['customer_contact_id as id', 'contact_created_at as created_at'])
    .where('account_id', '=', accountId)
    .where('organization_id', '=', organizationId);
  return inKeysetOrder(query, ['contact_created_at', 'customer_contact_id'], page.after)

    .limit(page.limit + 1)
    .offset(page.offset);
}

/**
 * One page of live contacts, oldest first (then by id), and the first of the next page if any
 * (`limit + 1` rows); `accountId` narrows to the contacts of one account. Only the page's rows
 * are read, however deep the page.
 */
export async function listContacts(
  db: Db,
  organizationId: string,
  filter: { accountId?: string; page: ListPage },
): Promise<ContactRow[]> {
  const ids = filter.accountId
    ? accountContactPageIds(db, organizationId, filter.accountId, filter.page)
    : contactPageIds(db, organizationId, filter.page);
  return selectContacts(db, organizationId)
    .innerJoin(ids.as('page'), 'page.id', 'customer_contacts.id')
    .orderBy('page.created_at')
    .orderBy('page.id')
    .execute();
}

export async function updateContact(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<CustomerContactTable>,
): Promise<number> {
  const result = await db
    .updateTable('customer_contacts')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The live accounts each contact belongs to, by name. */
export async function listAccountsOfContacts(db: Db, contactIds: readonly string[]) {
  if (contactIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('account_contacts')
    .innerJoin('accounts', 'accounts.id', 'account_contacts.account_id')
    .select(['account_contacts.customer_contact_id', 'accounts.id', 'accounts.name', 'accounts.primary_domain'])
    .where('account_contacts.customer_contact_id', 'in', [...contactIds])
    .where('accounts.deleted_at', 'is', null)
    .orderBy('accounts.name')
    .orderBy('accounts.id')
    .execute();
}

/** Makes `accountIds` the contact's accounts: links not named are removed. */
export async function replaceContactAccounts(
  db: Db,
  contact: { id: string; organization_id: string; created_at: string },
  accountIds: readonly string[],
  at: string,
): Promise<void> {
  await removeContactFromAccounts(db, contact.id);
  if (accountIds.length > 0) {
    await db
      .insertInto('account_contacts')
      .values(
        accountIds.map((accountId) => ({
          account_id: accountId,
          customer_contact_id: contact.id,
          organization_id: contact.organization_id,
          created_at: at,
          contact_created_at: contact.created_at,
        })),
      )
      .execute();
  }
}

/** Adds the contact to the account unless it is in it already. */
export async function addContactToAccount(
  db: Db,
  contact: { id: string; organization_id: string; created_at: string },
  accountId: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('account_contacts')
    .values({
      account_id: accountId,
      customer_contact_id: contact.id,
      organization_id: contact.organization_id,
      created_at: at,
      contact_created_at: contact.created_at,
    })
    .onConflict((oc) => oc.columns(['account_id', 'customer_contact_id']).doNothing())
    .execute();
}

export async function removeContactFromAccounts(db: Db, contactId: string): Promise<void> {
  await db.deleteFrom('account_contacts').where('customer_contact_id', '=', contactId).execute();
}
