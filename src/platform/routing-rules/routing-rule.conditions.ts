/**
 * Conditions of routing rules. Each is stored as the string the client sent, a JSON object
 * `{"field", "operator", "value", "precedence"?}`; this module checks one (`parseCondition`) and
 * decides whether a ticket satisfies it (`matchesCondition`). Pure: no database, no clock.
 *
 * Matching ignores case, in values as in operator and field names (`EQUALS` is `equals`). A ticket
 * field holding a list (a multi-select custom field) satisfies a positive operator when any of its
 * values does; the negative operators (`not_equals`, `not_contains`) are the exact opposites.
 * `tags` holds the ticket's tag names and ids; `contains` a tag means having that tag (whole
 * name or id, ignoring case), not a tag with that text inside.
 */

export const CONDITION_FIELDS = [
  'title',
  'description',
  'priority',
  'status',
  'source',
  'requestorEmail',
  'accountId',
  'type',
  'tags',
] as const;

/** SLA policies also match on the ticket's team (routing rules belong to a team already). */
export const SLA_CONDITION_FIELDS = [...CONDITION_FIELDS, 'teamId'] as const;

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'in',
  'is_empty',
  'is_not_empty',
] as const;

export type ConditionField = (typeof SLA_CONDITION_FIELDS)[number];
type RoutingField = (typeof CONDITION_FIELDS)[number];
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** `customField.<fieldId>` addresses a custom field of the ticket. */
const CUSTOM_FIELD_PREFIX = 'customfield.';

export type ConditionValue = string | number;

export interface Condition {
  /** A ticket field, or `customField.<fieldId>`; ticket field names are given canonical case. */
  field: ConditionField | `customField.${string}`;
  operator: ConditionOperator;
  /** Absent for `is_empty` / `is_not_empty`; a list for `in`. */
  value?: ConditionValue | ConditionValue[];
  precedence?: number;
}

/** What a ticket field may hold; `null`, `undefined`, blank text and `[]` count as empty. */
export type TicketFieldValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The ticket as the matcher sees it. */
export type RoutingTicket = Readonly<Record<RoutingField, TicketFieldValue>> & {
  teamId?: TicketFieldValue;
  customFields: Readonly<Record<string, TicketFieldValue>>;
};

export type ParsedCondition = { ok: true; condition: Condition } | { ok: false; problem: string };

const NO_VALUE_OPERATORS: readonly ConditionOperator[] = ['is_empty', 'is_not_empty'];
const CONDITION_KEYS = ['field', 'operator', 'value', 'precedence'];

/**
 * Reads one condition string. On failure, `problem` completes a sentence whose subject is the
 * condition's place: `andRules[1]` + ` has an unknown operator "BETWEEN"`.
 */
export function parseCondition(text: string, fields: readonly ConditionField[] = CONDITION_FIELDS): ParsedCondition {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail('is not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail('is not a JSON object');
  }
  const object = raw as Record<string, unknown>;
  const unknownKey = Object.keys(object).find((key) => !CONDITION_KEYS.includes(key));
  if (unknownKey !== undefined) {
    return fail(`has an unknown key "${unknownKey}"`);
  }
  const field = readField(object.field, fields);
  if (!field.ok) {
    return field;
  }
  const operator = readOperator(object.operator);
  if (!operator.ok) {
    return operator;
  }
  const value = readValue(operator.operator, object.value);
  if (!value.ok) {
    return value;
  }
  const condition: Condition = { field: field.field, operator: operator.operator };
  if (value.value !== undefined) {
    condition.value = value.value;
  }
  if (object.precedence !== undefined && object.precedence !== null) {
    if (typeof object.precedence !== 'number' || !Number.isFinite(object.precedence)) {
      return fail('has a precedence that is not a number');
    }
    condition.precedence = object.precedence;
  }
  return { ok: true, condition };
}

function fail(problem: string): { ok: false; problem: string } {
  return { ok: false, problem };
}

function readField(
  raw: unknown,
  fields: readonly ConditionField[],
): { ok: true; field: Condition['field'] } | { ok: false; problem: string } {
  if (raw === undefined || raw === null || raw === '') {
    return fail('has no field');
  }
  if (typeof raw !== 'string') {
    return fail('has a field that is not a string');
  }
  const lower = raw.toLowerCase();
  if (lower.startsWith(CUSTOM_FIELD_PREFIX)) {
    const fieldId = raw.slice(CUSTOM_FIELD_PREFIX.length);
    if (!/^\S+$/.test(fieldId)) {
      return fail(`has a custom field without an id "${raw}"`);
    }
    return { ok: true, field: `customField.${fieldId}` };
  }
  const known = fields.find((name) => name.toLowerCase() === lower);
  return known ? { ok: true, field: known } : fail(`has an unknown field "${raw}"`);
}

function readOperator(raw: unknown): { ok: true; operator: ConditionOperator } | { ok: false; problem: string } {
  if (raw === undefined || raw === null || raw === '') {
    return fail('has no operator');
  }
  if (typeof raw !== 'string') {
    return fail('has an operator that is not a string');
  }
  const known = CONDITION_OPERATORS.find((name) => name === raw.toLowerCase());
  return known ? { ok: true, operator: known } : fail(`has an unknown operator "${raw}"`);
}

function readValue(
  operator: ConditionOperator,
  raw: unknown,
): { ok: true; value: Condition['value'] } | { ok: false; problem: string } {
  if (NO_VALUE_OPERATORS.includes(operator)) {
    return raw === undefined || raw === null
      ? { ok: true, value: undefined }
      : fail(`has a value, which "${operator}" does not take`);
  }
  if (operator === 'in') {
    if (!Array.isArray(raw) || raw.length === 0) {
      return fail('needs a non-empty array value for "in"');
    }
    if (!raw.every(isScalarValue)) {
      return fail('has an "in" value whose items are not all non-empty strings or numbers');
    }
    return { ok: true, value: raw };
  }
  if (raw === undefined || raw === null) {
    return fail(`has no value for "${operator}"`);
  }
  return isScalarValue(raw) ? { ok: true, value: raw } : fail(`needs a non-empty string or a number value for "${operator}"`);
}

function isScalarValue(value: unknown): value is ConditionValue {
  return (typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value));
}

/** The field's values as lower-case text; an empty field has none. */
function fieldTexts(condition: Condition, ticket: RoutingTicket): string[] {
  const value = condition.field.startsWith('customField.')
    ? ticket.customFields[condition.field.slice('customField.'.length)]
    : ticket[condition.field as ConditionField];
  const values = Array.isArray(value) ? value : [value];
  return values
    .filter((item): item is string | number | boolean => item !== null && item !== undefined)
    .map((item) => String(item).toLowerCase())
    .filter((item) => item.trim().length > 0);
}

const text = (value: ConditionValue) => String(value).toLowerCase();

/** Whether the ticket satisfies one condition. */
export function matchesCondition(condition: Condition, ticket: RoutingTicket): boolean {
  const actual = fieldTexts(condition, ticket);
  const expected = condition.value;
  const single = expected === undefined || Array.isArray(expected) ? '' : text(expected);
  // A ticket contains a tag when it has it: `vip` is not in a ticket tagged `vip-lapsed`.
  const wholeItems = condition.field === 'tags';
  switch (condition.operator) {
    case 'is_empty':
      return actual.length === 0;
    case 'is_not_empty':
      return actual.length > 0;
    case 'equals':
      return actual.includes(single);
    case 'not_equals':
      return !actual.includes(single);
    case 'contains':
      return actual.some((item) => (wholeItems ? item === single : item.includes(single)));
    case 'not_contains':
      return !actual.some((item) => (wholeItems ? item === single : item.includes(single)));
    case 'starts_with':
      return actual.some((item) => item.startsWith(single));
    case 'in': {
      const options = (Array.isArray(expected) ? expected : []).map(text);
      return actual.some((item) => options.includes(item));
    }
  }
}

/**
 * Whether a rule matches: every `and` condition holds and, when there are `or` conditions, at
 * least one of them does (Zendesk's all/any). A rule without conditions matches every ticket.
 */
export function matchesRule(rule: { andRules: Condition[]; orRules: Condition[] }, ticket: RoutingTicket): boolean {
  return (
    rule.andRules.every((condition) => matchesCondition(condition, ticket)) &&
    (rule.orRules.length === 0 || rule.orRules.some((condition) => matchesCondition(condition, ticket)))
  );
}
