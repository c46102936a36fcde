import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import {
  type CustomFieldValueEntry,
  mergeCustomFieldValues,
  validateCustomFieldValues,
} from '../custom-fields/custom-field.values.js';
import { recordEvent } from '../events/event.recorder.js';
import { findLiveUser } from '../users/user.lookup.js';
import { webUrlField } from './account.input.js';
import { requireAccount } from './account.lookup.js';
import { toAccount } from './account.presenter.js';
import {
  findAccountByPrimaryDomain,
  insertAccount,
  listAccounts as listAccountRows,
  updateAccount as updateAccountRow,
} from './account.repository.js';
import type { CreateAccount, ListAccountsQuery, UpdateAccount } from './account.schemas.js';
import type { AccountTable } from './account.table.js';
import type { AttributeValueRow } from './account-attribute.repository.js';
import { loadAttributeValues, resolveAttributeValue } from './account-attribute.service.js';
import type { AccountAttribute } from './account-attribute.table.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export type Account = ReturnType<typeof toAccount>;

/** The account fields that name an attribute value, with the column each one fills. */
const ATTRIBUTE_FIELDS = [
  ['status', 'account_status', 'status_id'],
  ['classification', 'account_classification', 'classification_id'],
  ['health', 'account_health', 'health_id'],
  ['industry', 'account_industry', 'industry_id'],
] as const satisfies readonly (readonly [keyof CreateAccount, AccountAttribute, keyof AccountTable])[];

async function requireFreeDomain(trx: Transaction<DB>, organizationId: string, domain: string, accountId?: string) {
  const taken = await findAccountByPrimaryDomain(trx, organizationId, domain);
  if (taken && taken.id !== accountId) {
    throw AppError.conflict('Account with this primary domain already exists!');
  }
}

async function requireOwner(trx: Transaction<DB>, organizationId: string, ownerId: string | null | undefined) {
  if (ownerId && !(await findLiveUser(trx, organizationId, ownerId))) {
    throw AppError.invalid('accountOwnerId must be a user of the organization', {
      location: 'body',
      path: ['accountOwnerId'],
      rule: 'reference',
    });
  }
}

/** Columns of the plain fields that were sent (URLs checked, domains lower-cased). */
function plainChanges(input: UpdateAccount): Updateable<AccountTable> {
  const changes: Updateable<AccountTable> = {};
  const copy = <K extends keyof AccountTable>(column: K, value: AccountTable[K] | undefined) => {
    if (value !== undefined) {
      changes[column] = value as Updateable<AccountTable>[K];
    }
  };
  copy('name', input.name?.trim());
  copy('primary_domain', input.primaryDomain?.toLowerCase());
  copy('secondary_domain', input.secondaryDomain === undefined ? undefined : (input.secondaryDomain?.toLowerCase() ?? null));
  copy('description', input.description);
  copy('source', input.source);
  copy('logo', webUrlField(input.logo, 'logo'));
  copy('website', webUrlField(input.website, 'website'));
  copy('account_owner_id', input.accountOwnerId);
  copy('annual_revenue', input.annualRevenue);
  copy('employees', input.employees);
  copy('billing_address', input.billingAddress);
  copy('shipping_address', input.shippingAddress);
  copy('metadata', input.metadata === undefined ? undefined : writeJson(input.metadata));
  return changes;
}

function requireName(name: string | undefined): void {
  if (name !== undefined && name.trim() === '') {
    throw AppError.invalid('name must not be blank', { location: 'body', path: ['name'], rule: 'minLength' });
  }
}

/** Attribute columns for the fields sent; on create, absent fields take the attribute's default. */
function attributeChanges(values: Map<AccountAttribute, AttributeValueRow[]>, input: UpdateAccount, onCreate: boolean) {
  const changes: Updateable<AccountTable> = {};
  for (const [field, attribute, column] of ATTRIBUTE_FIELDS) {
    if (input[field] !== undefined || onCreate) {
      changes[column] = resolveAttributeValue(values, attribute, input[field], field)?.id ?? null;
    }
  }
  return changes;
}

export async function createAccount(deps: Deps, principal: Principal, input: CreateAccount): Promise<Account> {
  const organizationId = principal.organizationId;
  requireName(input.name);
  const plain = plainChanges(input);
  const id = deps.ids.ulid();
  return deps.db.transaction().execute(async (trx) => {
    const values = await loadAttributeValues(trx, deps, organizationId);
    const attributes = attributeChanges(values, input, true);
    await requireOwner(trx, organizationId, input.accountOwnerId);
    const customFieldValues = await validateCustomFieldValues(trx, organizationId, 'account', input.customFieldValues ?? [], {
      onCreate: true,
    });
    const domain = input.primaryDomain.toLowerCase();
    await requireFreeDomain(trx, organizationId, domain);
    const at = deps.clock.now().toISOString();
    await insertAccount(trx, {
      description: null,
      source: null,
      logo: null,
      secondary_domain: null,
      website: null,
      account_owner_id: null,
      annual_revenue: null,
      employees: null,
      billing_address: null,
      shipping_address: null,
      metadata: null,
      ...plain,
      ...attributes,
      id,
      organization_id: organizationId,
      name: input.name.trim(),
      primary_domain: domain,
      custom_field_values: writeJson(mergeCustomFieldValues([], customFieldValues)) ?? '[]',
      created_at: at,
      updated_at: at,
      deleted_at: null,
    });
    const account = toAccount(await requireAccount(trx, organizationId, id));
    await recordEvent(trx, deps, organizationId, {
      type: 'account.created',
      actor: { type: 'user', id: principal.userId },
      data: account,
    });
    return account;
  });
}

/** A page of live accounts, oldest first (then by id), by `page` or by `cursor`. */
export async function listAccounts(db: Kysely<DB>, principal: Principal, query: ListAccountsQuery) {
  const page = readListPage(query, query.limit ?? 10, 2);
  const rows = await listAccountRows(db, principal.organizationId, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(toAccount), nextCursor };
}

export async function getAccount(db: Kysely<DB>, principal: Principal, id: string | undefined): Promise<Account> {
  return toAccount(await requireAccount(db, principal.organizationId, id));
}

/** Changes the fields sent; custom-field values are merged by fieldId. */
export async function updateAccount(deps: Deps, principal: Principal, id: string | undefined, input: UpdateAccount) {
  const organizationId = principal.organizationId;
  const accountId = await deps.db.transaction().execute(async (trx) => {
    const account = await requireAccount(trx, organizationId, id);
    requireName(input.name);
    const changes: Updateable<AccountTable> = { ...plainChanges(input), updated_at: deps.clock.now().toISOString() };
    if (ATTRIBUTE_FIELDS.some(([field]) => input[field] !== undefined)) {
      Object.assign(changes, attributeChanges(await loadAttributeValues(trx, deps, organizationId), input, false));
    }
    await requireOwner(trx, organizationId, input.accountOwnerId);
    if (input.customFieldValues !== undefined) {
      const incoming = await validateCustomFieldValues(trx, organizationId, 'account', input.customFieldValues, {
        onCreate: false,
      });
      const existing = readJson<CustomFieldValueEntry[]>(account.custom_field_values) ?? [];
      changes.custom_field_values = writeJson(mergeCustomFieldValues(existing, incoming)) ?? '[]';
    }
    if (changes.primary_domain !== undefined) {
      await requireFreeDomain(trx, organizationId, changes.primary_domain as string, account.id);
    }
    await updateAccountRow(trx, organizationId, account.id, changes);
    return account.id;
  });
  return toAccount(await requireAccount(deps.db, organizationId, accountId));
}

/** Soft delete: its notes and contact links stay stored but are no longer shown; the primary domain is free again. */
export async function deleteAccount(deps: Deps, principal: Principal, id: string | undefined): Promise<void> {
  const account = await requireAccount(deps.db, principal.organizationId, id);
  const at = deps.clock.now().toISOString();
  await updateAccountRow(deps.db, principal.organizationId, account.id, { deleted_at: at, updated_at: at });
}
