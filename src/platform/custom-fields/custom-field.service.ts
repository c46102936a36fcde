import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError, type IssueLocation } from '../../lib/errors.js';
import { firstFreeValue, insertUnderFreeValue } from '../../lib/free-value.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { isOrgAdmin, requireOrgAdmin } from '../authorization.js';
import { isTeamMember, requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam, requireTeamManager } from '../teams/team.service.js';
import { findLiveUser } from '../users/user.lookup.js';
import { toCustomField } from './custom-field.presenter.js';
import {
  type CustomFieldRow,
  type CustomFieldScope,
  findCustomFieldByUid,
  findCustomFieldsAnywhere,
  findSlugsLike,
  insertCustomField,
  listCustomFields as listCustomFieldRows,
  setCustomFieldDefaultValue,
  softDeleteCustomField,
  updateCustomFieldAtVersion,
} from './custom-field.repository.js';
import type {
  BulkUpdateCustomFields,
  CreateCustomField,
  CustomFieldUpdates,
  ListCustomFieldsQuery,
  SearchCustomFieldsQuery,
} from './custom-field.schemas.js';
import type { CustomFieldTable, CustomFieldType } from './custom-field.table.js';
import { CHOICE_TYPES, checkCustomFieldValue } from './custom-field.values.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const NOT_FOUND = 'Custom field not found!';
export const NOT_A_MEMBER = 'User is not a member of this team!';
export const NO_SEARCH_TERM = 'No search term provided';

/** Where a request part sits, so every rule reports the same way a schema failure does. */
interface At {
  location: IssueLocation;
  path: (string | number)[];
}

function invalid(at: At, key: string | number, problem: string, rule: string): AppError {
  const path = [...at.path, key];
  return AppError.invalid(`${path.join('.')} ${problem}`, { location: at.location, path, rule, message: problem });
}

/** Organization admins count as members of every team. */
async function requireMembership(db: Kysely<DB> | Transaction<DB>, principal: Principal, teamId: string, at: At) {
  await requireTeam(db, principal.organizationId, teamId);
  if (!isOrgAdmin(principal) && !(await isTeamMember(db, teamId, principal.userId))) {
    throw AppError.invalid(NOT_A_MEMBER, { location: at.location, path: [...at.path, 'teamId'], rule: 'membership' });
  }
}

/**
 * Fields shape the records of the whole organization, so admins define them; a team's own fields
 * may also be defined by a manager of that team, as its tags and routing rules are.
 */
async function requireManager(db: Kysely<DB> | Transaction<DB>, principal: Principal, row: Pick<CustomFieldRow, 'team_id'>) {
  if (row.team_id === null) {
    requireOrgAdmin(principal);
  } else {
    await requireTeamManager(db, principal, { id: row.team_id });
  }
}

/** Trimmed option values; blank and (case-insensitively) repeated ones are refused. */
function normaliseOptions(options: { value: string }[], at: At): string[] {
  const values: string[] = [];
  options.forEach((option, index) => {
    const value = option.value.trim();
    const optionAt = { ...at, path: [...at.path, 'options', index] };
    if (value === '') {
      throw invalid(optionAt, 'value', 'must not be blank', 'minLength');
    }
    if (values.some((taken) => taken.toLowerCase() === value.toLowerCase())) {
      throw invalid(optionAt, 'value', `repeats the option "${value}"; option values must be unique`, 'uniqueItems');
    }
    values.push(value);
  });
  return values;
}

function requireCompilingRegex(pattern: string | null | undefined, at: At): void {
  if (pattern) {
    try {
      new RegExp(pattern);
    } catch {
      throw invalid(at, 'regexForValidation', 'must be a valid regular expression', 'format');
    }
  }
}

interface Definition {
  fieldType: CustomFieldType;
  options: string[];
  defaultValue: string | null;
  regexForValidation: string | null;
}

/** The rules a whole definition must keep; answers the default value in normal form. */
function checkDefinition(definition: Definition, at: At): string | null {
  const choice = CHOICE_TYPES.includes(definition.fieldType);
  if (choice && definition.options.length === 0) {
    throw invalid(at, 'options', `must have at least one option for a ${definition.fieldType} field`, 'minItems');
  }
  if (!choice && definition.options.length > 0) {
    throw invalid(at, 'options', `are only accepted for choice fields (${CHOICE_TYPES.join(', ')})`, 'fieldType');
  }
  requireCompilingRegex(definition.regexForValidation, at);
  if (definition.defaultValue === null) {
    return null;
  }
  const checked = checkCustomFieldValue(definition, definition.defaultValue);
  if (!checked.ok) {
    throw invalid(at, 'defaultValue', checked.problem, 'customFieldValue');
  }
  const value = checked.value;
  return value === null ? null : Array.isArray(value) ? (value[0] ?? null) : String(value);
}

/** `Order Number (EU)` → `order-number-eu`; accents folded, anything else becomes a hyphen. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'field';
}

/** The base slug, or `base-2`, `base-3`… (the first one free, deleted fields' slugs included). */
async function nextFreeSlug(db: Kysely<DB>, organizationId: string, source: CustomFieldRow['source'], base: string) {
  return firstFreeValue(base, await findSlugsLike(db, organizationId, source, base));
}

const blankToNull = (text: string | null | undefined) => (text === undefined || text === null || text === '' ? null : text);

/**
 * Creates a field; its slug derives from the name (the first free one), or is `placement.slug`
 * exactly, which a configuration import asks for so that references by slug keep working: then
 * a slug already taken, by a deleted field too, is a 409.
 */
export async function createCustomField(
  deps: Deps,
  principal: Principal,
  input: CreateCustomField,
  placement: { slug?: string } = {},
) {
  if (input.teamId) {
    await requireManagedTeam(deps.db, principal, input.teamId);
  } else {
    await requireManager(deps.db, principal, { team_id: null });
  }
  const at: At = { location: 'body', path: [] };
  const name = input.name.trim();
  if (name === '') {
    throw invalid(at, 'name', 'must not be blank', 'minLength');
  }
  const options = normaliseOptions(input.options ?? [], at);
  const regexForValidation = blankToNull(input.regexForValidation);
  const defaultValue = checkDefinition(
    { fieldType: input.fieldType, options, defaultValue: blankToNull(input.defaultValue), regexForValidation },
    at,
  );
  const now = deps.clock.now().toISOString();
  const row: CustomFieldTable = {
    uid: deps.ids.ulid(),
    organization_id: principal.organizationId,
    team_id: input.teamId ?? null,
    name,
    slug: slugify(name),
    source: input.source,
    field_type: input.fieldType,
    options: writeJson(options) ?? '[]',
    metadata: writeJson(input.metadata ?? {}) ?? '{}',
    description: input.description ?? null,
    is_active: input.isActive ?? true,
    auto_add_to_all_forms: input.autoAddToAllForms ?? false,
    hint_text: input.hintText ?? null,
    placeholder_text: input.placeholderText ?? null,
    default_value: defaultValue,
    regex_for_validation: regexForValidation,
    mandatory_on_creation: input.mandatoryOnCreation ?? false,
    mandatory_on_close: input.mandatoryOnClose ?? false,
    visible_to_customer: input.visibleToCustomer ?? false,
    editable_by_customer: input.editableByCustomer ?? false,
    lookup: input.lookup ?? null,
    version: 1,
    updated_by: principal.userId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  if (placement.slug === undefined) {
    await insertWithFreeSlug(deps.db, row);
  } else if (!(await insertCustomField(deps.db, { ...row, slug: placement.slug }))) {
    throw AppError.conflict(
      `A custom field of ${row.source} with slug ${placement.slug} exists already (deleted fields keep theirs)`,
    );
  }
  return requireField(deps.db, row.organization_id, row.uid);
}

/** Inserts under the first free slug; another request may take it in between, so look again then. */
async function insertWithFreeSlug(db: Kysely<DB>, row: CustomFieldTable): Promise<void> {
  await insertUnderFreeValue(
    () => nextFreeSlug(db, row.organization_id, row.source, row.slug),
    (slug) => insertCustomField(db, { ...row, slug }),
  );
}

async function requireField(db: Kysely<DB>, organizationId: string, uid: string) {
  const row = await findCustomFieldByUid(db, organizationId, uid);
  if (!row) {
    throw AppError.notFound(NOT_FOUND);
  }
  return toCustomField(row);
}

export async function getCustomField(db: Kysely<DB>, principal: Principal, uid: string) {
  return requireField(db, principal.organizationId, uid);
}

/** Soft delete: the field disappears from reads; its slug stays reserved. */
export async function deleteCustomField(deps: Deps, principal: Principal, uid: string) {
  const row = await findCustomFieldByUid(deps.db, principal.organizationId, uid);
  if (!row) {
    throw AppError.notFound(NOT_FOUND);
  }
  await requireManager(deps.db, principal, row);
  const at = deps.clock.now().toISOString();
  if (!(await softDeleteCustomField(deps.db, principal.organizationId, uid, at, principal.userId))) {
    throw AppError.notFound(NOT_FOUND);
  }
  return { ...toCustomField(row), updatedAt: at, version: Number(row.version) + 1, updatedBy: principal.userId };
}

async function scopeFor(db: Kysely<DB>, principal: Principal, query: ListCustomFieldsQuery): Promise<CustomFieldScope> {
  const includeOrganizationWide = !query.onlyTeamFields;
  if (query.teamId) {
    await requireMembership(db, principal, query.teamId, { location: 'query', path: [] });
    return { teamId: query.teamId, includeOrganizationWide };
  }
  return { memberUserId: isOrgAdmin(principal) ? null : principal.userId, includeOrganizationWide };
}

/**
 * Without `teamId`: the organization-wide fields and those of the caller's teams (every team for
 * organization admins); with it, that team's fields and the organization-wide ones. `onlyTeamFields`
 * drops the organization-wide ones.
 */
export async function listCustomFields(
  db: Kysely<DB>,
  principal: Principal,
  query: ListCustomFieldsQuery,
  nameContains?: string,
) {
  const page = readListPage(query, query.limit ?? 10, 2);
  const rows = await listCustomFieldRows(db, {
    organizationId: principal.organizationId,
    scope: await scopeFor(db, principal, query),
    source: query.source,
    nameContains,
    page,
  });
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.uid]);
  return { items: items.map(toCustomField), nextCursor };
}

export async function searchCustomFields(db: Kysely<DB>, principal: Principal, query: SearchCustomFieldsQuery) {
  const term = query.searchTerm?.trim();
  if (!term) {
    throw AppError.invalid(NO_SEARCH_TERM, { location: 'query', path: ['searchTerm'], rule: 'required' });
  }
  return listCustomFields(db, principal, query, term);
}

/** Checks that need only the request: at least one change, a non-blank name, clean options, a regex that compiles. */
function prepareChanges(updates: CustomFieldUpdates, at: At, now: string, userId: string): Updateable<CustomFieldTable> {
  const keys = Object.keys(updates);
  if (keys.length === 0) {
    throw AppError.invalid(`${at.path.join('.')} must change at least one property`, {
      location: at.location,
      path: at.path,
      rule: 'minProperties',
    });
  }
  const changes: Updateable<CustomFieldTable> = { updated_at: now, updated_by: userId };
  if (updates.name !== undefined) {
    changes.name = updates.name.trim();
    if (changes.name === '') {
      throw invalid(at, 'name', 'must not be blank', 'minLength');
    }
  }
  if (updates.options !== undefined) {
    changes.options = writeJson(normaliseOptions(updates.options, at)) ?? '[]';
  }
  if (updates.regexForValidation !== undefined) {
    changes.regex_for_validation = blankToNull(updates.regexForValidation);
    requireCompilingRegex(changes.regex_for_validation, at);
  }
  if (updates.defaultValue !== undefined) {
    changes.default_value = blankToNull(updates.defaultValue);
  }
  const plain = {
    description: 'description',
    isActive: 'is_active',
    placeholderText: 'placeholder_text',
    hintText: 'hint_text',
    mandatoryOnCreation: 'mandatory_on_creation',
    mandatoryOnClose: 'mandatory_on_close',
    visibleToCustomer: 'visible_to_customer',
    editableByCustomer: 'editable_by_customer',
    autoAddToAllForms: 'auto_add_to_all_forms',
  } as const;
  for (const [key, column] of Object.entries(plain) as [keyof typeof plain, (typeof plain)[keyof typeof plain]][]) {
    if (updates[key] !== undefined) {
      Object.assign(changes, { [column]: updates[key] });
    }
  }
  return changes;
}

/**
 * All or nothing, in one transaction. Each entry is written with a compare-and-set on its version
 * (in uid order, so two overlapping bulk updates lock rows in the same order); then the outcome is
 * judged on what the database holds: an unknown field is a 400, another organization's a 404, a
 * stale version a 409 naming every stale field with its current version, a definition the
 * changes would break a 400. Any of these rolls the whole request back (with `deps.db` a
 * transaction of the caller's, the caller's whole transaction).
 */
export async function bulkUpdateCustomFields(deps: Deps, principal: Principal, body: BulkUpdateCustomFields) {
  const organizationId = principal.organizationId;
  const now = deps.clock.now().toISOString();
  const entries = body.fields.map((entry, index) => {
    const at: At = { location: 'body', path: ['fields', index, 'updates'] };
    if (body.fields.findIndex((other) => other.fieldId === entry.fieldId) !== index) {
      throw invalid(
        { location: 'body', path: ['fields', index] },
        'fieldId',
        `lists custom field ${entry.fieldId} a second time`,
        'unique',
      );
    }
    return { ...entry, index, at, changes: prepareChanges(entry.updates, at, now, principal.userId) };
  });

  return inTransaction(deps.db, async (trx) => {
    const written = new Set<string>();
    for (const entry of [...entries].sort((a, b) => (a.fieldId < b.fieldId ? -1 : 1))) {
      if (await updateCustomFieldAtVersion(trx, organizationId, entry.fieldId, entry.version, entry.changes)) {
        written.add(entry.fieldId);
      }
    }
    const current = await judgeBulkUpdate(trx, principal, entries, written);
    for (const { entry, row } of current) {
      const defaultValue = checkDefinition(
        {
          fieldType: row.field_type,
          options: readJson<string[]>(row.options) ?? [],
          defaultValue: row.default_value,
          regexForValidation: row.regex_for_validation,
        },
        entry.at,
      );
      if (defaultValue !== row.default_value) {
        await setCustomFieldDefaultValue(trx, row.uid, defaultValue);
        row.default_value = defaultValue;
      }
    }
    return current.map(({ row }) => toCustomField(row));
  });
}

interface BulkEntry {
  fieldId: string;
  version: number;
  index: number;
  at: At;
}

/** After the writes: every entry names a live field of the organization the caller may change, at the version sent. */
async function judgeBulkUpdate<E extends BulkEntry>(
  trx: Transaction<DB>,
  principal: Principal,
  entries: E[],
  written: Set<string>,
) {
  const rows = new Map(
    (
      await findCustomFieldsAnywhere(
        trx,
        entries.map((entry) => entry.fieldId),
      )
    ).map((row) => [row.uid, row]),
  );
  const current = entries.map((entry) => {
    const row = rows.get(entry.fieldId);
    if (!row || row.deleted_at !== null) {
      throw invalid(
        { location: 'body', path: ['fields', entry.index] },
        'fieldId',
        `is not a custom field: ${entry.fieldId}`,
        'reference',
      );
    }
    if (row.organization_id !== principal.organizationId) {
      throw AppError.notFound(NOT_FOUND);
    }
    return { entry, row };
  });
  for (const { row } of current) {
    await requireManager(trx, principal, row);
  }
  const stale = current.filter(({ entry }) => !written.has(entry.fieldId));
  if (stale.length > 0) {
    const list: string[] = [];
    for (const { entry, row } of stale) {
      const author = row.updated_by ? await findLiveUser(trx, principal.organizationId, row.updated_by) : undefined;
      const by = author ? `, last changed by ${author.name}` : '';
      list.push(`${entry.fieldId} (sent version ${entry.version}, current version ${row.version}${by})`);
    }
    throw AppError.conflict(`Custom fields were changed by someone else; nothing was updated. Stale: ${list.join(', ')}`);
  }
  return current;
}
