import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { AppError, type IssueLocation } from '../../lib/errors.js';
import { isHttpUrl } from '../../lib/http-url.js';
import { type CustomFieldRow, findCustomFieldsByUids, findMandatoryCustomFields } from './custom-field.repository.js';
import type { CustomFieldSource, CustomFieldType } from './custom-field.table.js';

/** A value as records store and return it: text, a number, a list of options, or null for none. */
export type CustomFieldValue = string | number | string[] | null;

export interface CustomFieldValueEntry {
  fieldId: string;
  value: CustomFieldValue;
}

/** The parts of a definition that decide whether a value fits. */
export interface ValueRules {
  fieldType: CustomFieldType;
  options: readonly string[];
  regexForValidation: string | null;
}

export const SINGLE_CHOICE_TYPES: readonly CustomFieldType[] = ['single_choice', 'radio_button'];
export const MULTI_CHOICE_TYPES: readonly CustomFieldType[] = ['multi_choice', 'checkbox'];
export const CHOICE_TYPES: readonly CustomFieldType[] = [...SINGLE_CHOICE_TYPES, ...MULTI_CHOICE_TYPES];

const TEXT_LIMITS: Partial<Record<CustomFieldType, number>> = { single_line: 1000, multi_line: 65_536, rich_text: 65_536 };

type Checked = { ok: true; value: CustomFieldValue } | { ok: false; problem: string };

const fail = (problem: string): Checked => ({ ok: false, problem });

/** `null`, `''`, blank text and `[]` all mean "no value". */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function toNumber(raw: unknown, integer: boolean): number | null {
  const pattern = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
  const number =
    typeof raw === 'number' ? raw : typeof raw === 'string' && pattern.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isFinite(number) || (integer && !Number.isSafeInteger(number))) {
    return null;
  }
  return number;
}

function checkChoice(rules: ValueRules, raw: unknown): Checked {
  const canonical = (text: string) =>
    rules.options.find((option) => option === text) ??
    rules.options.find((option) => option.toLowerCase() === text.toLowerCase());
  const allowed = rules.options.join(', ');
  if (SINGLE_CHOICE_TYPES.includes(rules.fieldType)) {
    const option = typeof raw === 'string' ? canonical(raw.trim()) : undefined;
    return option === undefined ? fail(`must be one of: ${allowed}`) : { ok: true, value: option };
  }
  const items = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(items)) {
    return fail(`must be a list of options from: ${allowed}`);
  }
  const chosen: string[] = [];
  for (const item of items) {
    const option = typeof item === 'string' ? canonical(item.trim()) : undefined;
    if (option === undefined) {
      return fail(`must only hold options from: ${allowed}`);
    }
    if (!chosen.includes(option)) {
      chosen.push(option);
    }
  }
  return { ok: true, value: chosen };
}

function checkType(rules: ValueRules, raw: unknown): Checked {
  const text = typeof raw === 'string' ? raw.trim() : null;
  switch (rules.fieldType) {
    case 'single_line':
    case 'multi_line':
    case 'rich_text': {
      if (typeof raw !== 'string') {
        return fail('must be a string');
      }
      const limit = TEXT_LIMITS[rules.fieldType] ?? 0;
      if (raw.length > limit) {
        return fail(`must be at most ${limit} characters long`);
      }
      if (rules.fieldType === 'single_line') {
        return /[\r\n]/.test(raw) ? fail('must be a single line') : { ok: true, value: raw.trim() };
      }
      return { ok: true, value: raw };
    }
    case 'integer': {
      const number = toNumber(raw, true);
      return number === null ? fail('must be a whole number') : { ok: true, value: number };
    }
    case 'decimal':
    case 'currency': {
      const number = toNumber(raw, false);
      return number === null ? fail('must be a number') : { ok: true, value: number };
    }
    case 'date':
      return text !== null && isCalendarDate(text) ? { ok: true, value: text } : fail('must be a date (YYYY-MM-DD)');
    case 'date_time': {
      const match = text && /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
      const instant = match?.[1] && isCalendarDate(match[1]) ? new Date(text ?? '') : null;
      return instant && !Number.isNaN(instant.getTime())
        ? { ok: true, value: instant.toISOString() }
        : fail('must be a date and time with a time zone (ISO 8601, e.g. 2026-01-15T09:00:00Z)');
    }
    case 'time':
      return text !== null && /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(text)
        ? { ok: true, value: text }
        : fail('must be a time of day (HH:MM or HH:MM:SS)');
    case 'email':
      return text !== null && text.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)
        ? { ok: true, value: text }
        : fail('must be an email address');
    case 'phone_number':
      return text !== null && /^\+?[\d\s().-]{4,30}$/.test(text) && (text.match(/\d/g) ?? []).length >= 4
        ? { ok: true, value: text }
        : fail('must be a phone number');
    case 'url':
      return text !== null && text.length <= 2048 && isHttpUrl(text)
        ? { ok: true, value: text }
        : fail('must be an http or https URL');
    default:
      return checkChoice(rules, raw);
  }
}

/**
 * Whether `raw` fits the definition, and its normal form: numbers as numbers, options spelled as
 * defined, multiple choices as a de-duplicated list, instants in UTC. An empty value is `null`.
 * `regexForValidation` must match the text of the value (each option of a list).
 */
export function checkCustomFieldValue(rules: ValueRules, raw: unknown): Checked {
  if (isEmptyValue(raw)) {
    return { ok: true, value: null };
  }
  const checked = checkType(rules, raw);
  if (!checked.ok || !rules.regexForValidation) {
    return checked;
  }
  const pattern = new RegExp(rules.regexForValidation);
  const texts = Array.isArray(checked.value) ? checked.value : [String(checked.value)];
  return texts.every((text) => pattern.test(text)) ? checked : fail(`must match the pattern ${rules.regexForValidation}`);
}

export function valueRulesOf(row: CustomFieldRow): ValueRules {
  return {
    fieldType: row.field_type,
    options: readJson<string[]>(row.options) ?? [],
    regexForValidation: row.regex_for_validation,
  };
}

export interface ValidateValuesOptions {
  /** Creating the record: every active `mandatoryOnCreation` field must have a value. */
  onCreate: boolean;
  /** Closing the record: `values` is the record's whole set and must hold every `mandatoryOnClose` field. */
  onClose?: boolean;
  /**
   * The record's team. Given: team-specific fields of other teams are refused and that team's
   * mandatory fields count. Absent (records without a team): any field of the organization fits.
   */
  teamId?: string;
  /**
   * Fields the record already holds: an empty value for one of them clears it without checking
   * its definition, so a value of a since deleted, deactivated or moved field can still be removed.
   */
  storedFieldIds?: readonly string[];
  /** Where the values sit in the request, for error paths; `['customFieldValues']` by default. */
  path?: (string | number)[];
  location?: IssueLocation;
}

/**
 * Checks the custom-field values sent for a record (a ticket, account or customer contact) against
 * their definitions and returns them normalised, in the order given. A value that does not fit is
 * a 400 naming the field and its place in the request; nothing is looked up outside the organization.
 */
export async function validateCustomFieldValues(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  source: CustomFieldSource,
  values: readonly { fieldId: string; value?: unknown }[],
  options: ValidateValuesOptions,
): Promise<CustomFieldValueEntry[]> {
  const invalid = problemReporter(options);
  const rows = await findCustomFieldsByUids(
    db,
    organizationId,
    values.map((entry) => entry.fieldId),
  );
  const fields = new Map(rows.map((row) => [row.uid, row]));
  const normalised: CustomFieldValueEntry[] = [];
  values.forEach((entry, index) => {
    if (isEmptyValue(entry.value) && options.storedFieldIds?.includes(entry.fieldId)) {
      normalised.push({ fieldId: entry.fieldId, value: null });
      return;
    }
    const field = fields.get(entry.fieldId);
    const at = [index, 'fieldId'];
    if (!field) {
      throw invalid(at, `is not a custom field of the organization: ${entry.fieldId}`, 'reference');
    }
    if (normalised.some((earlier) => earlier.fieldId === field.uid)) {
      throw invalid(at, 'lists a custom field a second time', 'unique', field);
    }
    if (field.source !== source) {
      throw invalid(at, `is a custom field of ${field.source} records, not of ${source} records`, 'source', field);
    }
    if (!readBoolean(field.is_active)) {
      throw invalid(at, 'is an inactive custom field', 'active', field);
    }
    if (options.teamId && field.team_id && field.team_id !== options.teamId) {
      throw invalid(at, "is a custom field of another team than the record's", 'team', field);
    }
    const checked = checkCustomFieldValue(valueRulesOf(field), entry.value);
    if (!checked.ok) {
      throw invalid([index, 'value'], checked.problem, 'customFieldValue', field);
    }
    normalised.push({ fieldId: field.uid, value: checked.value });
  });
  if (options.onCreate) {
    await requireMandatory(db, organizationId, source, normalised, options, 'mandatory_on_creation');
  }
  if (options.onClose) {
    await requireMandatory(db, organizationId, source, normalised, options, 'mandatory_on_close');
  }
  return normalised;
}

/**
 * Every active field mandatory at `moment` (organization-wide or of `teamId`) holds a value among
 * `values`, which are taken as already checked: a record being closed, or a new ticket that routing
 * moved to another team whose own mandatory fields now apply.
 */
export async function requireMandatoryValues(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  source: CustomFieldSource,
  values: readonly CustomFieldValueEntry[],
  moment: { teamId?: string; on: 'creation' | 'close' },
): Promise<void> {
  const column = moment.on === 'creation' ? 'mandatory_on_creation' : 'mandatory_on_close';
  await requireMandatory(db, organizationId, source, values, { onCreate: false, teamId: moment.teamId }, column);
}

/** Builds the 400 of a bad value: `<path> <problem> (custom field "<name>")`, at the caller's path. */
function problemReporter(options: ValidateValuesOptions) {
  const path = options.path ?? ['customFieldValues'];
  const location = options.location ?? 'body';
  return (at: (string | number)[], problem: string, rule: string, field?: CustomFieldRow) => {
    const named = field ? ` (custom field "${field.name}")` : '';
    return AppError.invalid(`${[...path, ...at].join('.')} ${problem}${named}`, {
      location,
      path: [...path, ...at],
      rule,
      message: problem,
    });
  };
}

/** Every active mandatory field of the record kind (organization-wide or of the record's team) holds a value. */
async function requireMandatory(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  source: CustomFieldSource,
  values: readonly CustomFieldValueEntry[],
  options: ValidateValuesOptions,
  when: 'mandatory_on_creation' | 'mandatory_on_close',
): Promise<void> {
  const mandatory = await findMandatoryCustomFields(db, organizationId, source, when, options.teamId);
  const missing = mandatory.filter((field) => !values.some((entry) => entry.fieldId === field.uid && entry.value !== null));
  if (missing.length > 0) {
    const names = missing.map((field) => `"${field.name}" (${field.uid})`).join(', ');
    const moment = when === 'mandatory_on_creation' ? 'on creation' : 'on close';
    throw problemReporter(options)(
      [],
      `must hold a value for every custom field mandatory ${moment}; missing: ${names}`,
      'required',
    );
  }
}

/**
 * A record's values after a write: merged by `fieldId`, never replaced as a whole. An incoming
 * `null` clears that field; fields not mentioned keep their value and position.
 */
export function mergeCustomFieldValues(
  existing: readonly CustomFieldValueEntry[],
  incoming: readonly CustomFieldValueEntry[],
): CustomFieldValueEntry[] {
  const merged = new Map(existing.map((entry) => [entry.fieldId, entry.value]));
  for (const entry of incoming) {
    if (entry.value === null) {
      merged.delete(entry.fieldId);
    } else {
      merged.set(entry.fieldId, entry.value);
    }
  }
  return [...merged].map(([fieldId, value]) => ({ fieldId, value }));
}

/**
 * The organization's custom fields of these uids, by uid (another organization's are missing, as
 * unknown ones are): what a ticket list's `cf.<fieldId>` filters are checked against.
 */
export async function customFieldsByUid(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  uids: readonly string[],
): Promise<Map<string, CustomFieldRow>> {
  return new Map((await findCustomFieldsByUids(db, organizationId, uids)).map((field) => [field.uid, field]));
}

/** The current names of these custom fields, by uid: how a ticket's timeline names the field of a changed value. */
export async function customFieldNames(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  uids: readonly string[],
): Promise<Map<string, string>> {
  return new Map((await findCustomFieldsByUids(db, organizationId, uids)).map((field) => [field.uid, field.name]));
}
