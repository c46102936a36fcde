import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { requireIdParam } from './account.input.js';
import { ACCOUNT_ATTRIBUTE_DEFAULTS } from './account-attribute.defaults.js';
import { toAttributeValue } from './account-attribute.presenter.js';
import {
  type AttributeValueRow,
  clearAttributeDefault,
  findAttributeValueById,
  findAttributeValueByName,
  findSeededAttributes,
  insertAttributeValue,
  insertAttributeValuesIfAbsent,
  listAttributeValues,
  updateAttributeValue,
} from './account-attribute.repository.js';
import type { CreateAttributeValue, UpdateAttributeValue } from './account-attribute.schemas.js';
import { ACCOUNT_ATTRIBUTES, type AccountAttribute } from './account-attribute.table.js';

type Db = Kysely<DB> | Transaction<DB>;
interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

const NOT_FOUND = 'Account attribute value not found!';

/**
 * Seeds the organization's default values of every attribute that never had one, on first use.
 * Safe when requests meet a new organization at once: the unique indexes (one live value per
 * name, one default per attribute) keep a single set, and the losers' rows are skipped.
 */
export async function ensureAttributeDefaults(db: Db, deps: Omit<Deps, 'db'>, organizationId: string): Promise<void> {
  const seeded = new Set(await findSeededAttributes(db, organizationId));
  const missing = ACCOUNT_ATTRIBUTES.filter((attribute) => !seeded.has(attribute));
  if (missing.length === 0) {
    return;
  }
  const at = deps.clock.now().toISOString();
  const rows = missing.flatMap((attribute) =>
    ACCOUNT_ATTRIBUTE_DEFAULTS[attribute].map((seed) => ({
      id: deps.ids.ulid(),
      organization_id: organizationId,
      attribute,
      value: seed.value,
      icon: seed.icon ?? null,
      color: seed.color ?? null,
      is_default: seed.isDefault ?? false,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })),
  );
  await insertAttributeValuesIfAbsent(db, rows);
}

/** Every live value of the organization, seeded first if needed, grouped by attribute. */
export async function loadAttributeValues(
  db: Db,
  deps: Omit<Deps, 'db'>,
  organizationId: string,
): Promise<Map<AccountAttribute, AttributeValueRow[]>> {
  await ensureAttributeDefaults(db, deps, organizationId);
  const byAttribute = new Map<AccountAttribute, AttributeValueRow[]>(ACCOUNT_ATTRIBUTES.map((attribute) => [attribute, []]));
  for (const row of await listAttributeValues(db, organizationId)) {
    byAttribute.get(row.attribute)?.push(row);
  }
  return byAttribute;
}

/**
 * The value a record field names, by id (wins) or by value (case-insensitive). Absent: the
 * attribute's default. A name that matches nothing is a 400 on `field` listing what is allowed.
 */
export function resolveAttributeValue(
  values: Map<AccountAttribute, AttributeValueRow[]>,
  attribute: AccountAttribute,
  choice: string | undefined,
  field: string,
): AttributeValueRow | null {
  const options = values.get(attribute) ?? [];
  if (choice === undefined) {
    return options.find((option) => readBoolean(option.is_default)) ?? null;
  }
  const wanted = choice.trim();
  const match =
    options.find((option) => option.id === wanted) ??
    options.find((option) => option.value.toLowerCase() === wanted.toLowerCase());
  if (!match) {
    const names = options.map((option) => option.value).join(', ');
    throw AppError.invalid(`${field} must name one of the ${attribute} values (by id or value): ${names}`, {
      location: 'body',
      path: [field],
      rule: 'reference',
    });
  }
  return match;
}

export async function listValues(deps: Deps, principal: Principal, attribute: AccountAttribute) {
  await ensureAttributeDefaults(deps.db, deps, principal.organizationId);
  return (await listAttributeValues(deps.db, principal.organizationId, attribute)).map(toAttributeValue);
}

function cleanValue(value: string): string {
  const cleaned = value.trim();
  if (cleaned === '') {
    throw AppError.invalid('value must not be blank', { location: 'body', path: ['value'], rule: 'minLength' });
  }
  return cleaned;
}

async function requireFreeName(trx: Db, organizationId: string, attribute: AccountAttribute, value: string, id?: string) {
  const taken = await findAttributeValueByName(trx, organizationId, attribute, value);
  if (taken && taken.id !== id) {
    throw AppError.conflict(`The ${attribute} value "${taken.value}" already exists!`);
  }
}

async function requireValue(db: Db, principal: Principal, id: string | undefined): Promise<AttributeValueRow> {
  const valueId = requireIdParam(id, 'Attribute value ID is required!');
  const row = await findAttributeValueById(db, principal.organizationId, valueId);
  if (!row) {
    throw AppError.notFound(NOT_FOUND);
  }
  return row;
}

/**
 * The values are the organization's vocabularies (account statuses, industries, note and task
 * types…) that every member picks from: admins add, change and delete them.
 */
export async function createValue(deps: Deps, principal: Principal, input: CreateAttributeValue) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const value = cleanValue(input.value);
  const id = deps.ids.ulid();
  await deps.db.transaction().execute(async (trx) => {
    await ensureAttributeDefaults(trx, deps, organizationId);
    await requireFreeName(trx, organizationId, input.attribute, value);
    const at = deps.clock.now().toISOString();
    if (input.isDefault) {
      await clearAttributeDefault(trx, organizationId, input.attribute, at);
    }
    await insertAttributeValue(trx, {
      id,
      organization_id: organizationId,
      attribute: input.attribute,
      value,
      icon: input.icon ?? null,
      color: input.color ?? null,
      is_default: input.isDefault ?? false,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    });
  });
  return toAttributeValue(await requireValue(deps.db, principal, id));
}

/** The attribute itself never changes; the default moves only by making another value the default. */
export async function updateValue(deps: Deps, principal: Principal, id: string | undefined, input: UpdateAttributeValue) {
  requireOrgAdmin(principal);
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await requireValue(trx, principal, id);
    const at = deps.clock.now().toISOString();
    const value = input.value === undefined ? undefined : cleanValue(input.value);
    if (value !== undefined) {
      await requireFreeName(trx, principal.organizationId, current.attribute, value, current.id);
    }
    const wasDefault = readBoolean(current.is_default);
    if (input.isDefault === false && wasDefault) {
      throw AppError.invalid(
        'isDefault cannot be turned off: every attribute has one default; make another value the default instead',
        { location: 'body', path: ['isDefault'], rule: 'default' },
      );
    }
    if (input.isDefault === true && !wasDefault) {
      await clearAttributeDefault(trx, principal.organizationId, current.attribute, at);
    }
    await updateAttributeValue(trx, principal.organizationId, current.id, {
      updated_at: at,
      ...(value === undefined ? {} : { value }),
      ...(input.icon === undefined ? {} : { icon: input.icon }),
      ...(input.color === undefined ? {} : { color: input.color }),
      ...(input.isDefault ? { is_default: true } : {}),
    });
    return current;
  });
  return toAttributeValue(await requireValue(deps.db, principal, row.id));
}

/** Soft delete; records that use the value keep showing it. The default cannot be deleted. */
export async function deleteValue(deps: Deps, principal: Principal, id: string | undefined): Promise<void> {
  requireOrgAdmin(principal);
  const row = await requireValue(deps.db, principal, id);
  if (readBoolean(row.is_default)) {
    throw AppError.conflict(`The default ${row.attribute} value cannot be deleted; make another value the default first!`);
  }
  const at = deps.clock.now().toISOString();
  await updateAttributeValue(deps.db, principal.organizationId, row.id, { deleted_at: at, updated_at: at });
}
