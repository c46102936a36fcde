/**
 * Conditions of routing rules and SLA policies, both ways: what the API stores (`andRules` /
 * `orRules`, each a JSON object in a string, `{"field","operator","value"}`) and what the form
 * edits (a field, an operator and a value picked from lists). The user never sees the JSON. Pure,
 * so tested beside.
 */

/** How a field's value is picked, which decides its operators and its value control. */
export type FieldKind = 'text' | 'option' | 'tags' | 'domain';

/** A condition as the form edits it: `value` for one value, `values` for "is one of". */
export interface ConditionDraft {
  field: string;
  operator: string;
  value: string;
  values: string[];
}

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  in: 'is one of',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
};

/** Tags read as having or not having one. */
const TAG_OPERATOR_LABELS: Record<string, string> = {
  contains: 'has',
  not_contains: 'does not have',
  is_empty: 'has no tags',
  is_not_empty: 'has any tag',
};

export const OPERATORS_BY_KIND: Record<FieldKind, readonly string[]> = {
  text: ['contains', 'not_contains', 'equals', 'not_equals', 'starts_with', 'is_empty', 'is_not_empty'],
  option: ['equals', 'not_equals', 'in', 'is_empty', 'is_not_empty'],
  tags: ['contains', 'not_contains', 'is_empty', 'is_not_empty'],
  domain: ['equals'],
};

export const NO_VALUE_OPERATORS = new Set(['is_empty', 'is_not_empty']);

/**
 * The requestor's domain is not a field of its own: "domain is acme.com" is stored as
 * "requestorEmail contains @acme.com", and read back the same way.
 */
export const REQUESTOR_DOMAIN = 'requestorDomain';

export function operatorLabel(kind: FieldKind, operator: string): string {
  return (kind === 'tags' ? TAG_OPERATOR_LABELS[operator] : undefined) ?? OPERATOR_LABELS[operator] ?? operator;
}

export function emptyCondition(field = 'title', kind: FieldKind = 'text'): ConditionDraft {
  return { field, operator: OPERATORS_BY_KIND[kind][0] ?? 'equals', value: '', values: [] };
}

/** The stored string for one condition of the form. */
export function conditionText(draft: ConditionDraft): string {
  if (draft.field === REQUESTOR_DOMAIN) {
    const domain = draft.value.trim().replace(/^@/, '');
    return JSON.stringify({ field: 'requestorEmail', operator: 'contains', value: `@${domain}` });
  }
  if (NO_VALUE_OPERATORS.has(draft.operator)) {
    return JSON.stringify({ field: draft.field, operator: draft.operator });
  }
  const value = draft.operator === 'in' ? draft.values : draft.value;
  return JSON.stringify({ field: draft.field, operator: draft.operator, value });
}

/** One stored condition as the form shows it; a condition that does not read stays as an empty title condition. */
export function conditionDraft(text: string): ConditionDraft {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return emptyCondition();
  }
  if (typeof raw !== 'object' || raw === null) {
    return emptyCondition();
  }
  const { field, operator, value } = raw as { field?: unknown; operator?: unknown; value?: unknown };
  const fieldName = typeof field === 'string' ? canonicalField(field) : 'title';
  const operatorName = typeof operator === 'string' ? operator.toLowerCase() : 'equals';
  if (fieldName === 'requestorEmail' && operatorName === 'contains' && typeof value === 'string' && value.startsWith('@')) {
    return { field: REQUESTOR_DOMAIN, operator: 'equals', value: value.slice(1), values: [] };
  }
  const values = Array.isArray(value) ? value.map(String) : [];
  return {
    field: fieldName,
    operator: operatorName,
    value: Array.isArray(value) || value === undefined || value === null ? '' : String(value),
    values,
  };
}

const TICKET_FIELDS = [
  'title',
  'description',
  'priority',
  'status',
  'source',
  'requestorEmail',
  'accountId',
  'type',
  'tags',
  'teamId',
];

/** The API reads field names in any case; the form's lists use their canonical spelling. */
function canonicalField(field: string): string {
  if (field.toLowerCase().startsWith('customfield.')) {
    return `customField.${field.slice('customField.'.length)}`;
  }
  return TICKET_FIELDS.find((name) => name.toLowerCase() === field.toLowerCase()) ?? field;
}

/** The API's problem paths (`andRules[2]`) and the form field each is shown beside (`andRules.2`). */
export function conditionProblemNames(andCount: number, orCount: number): Record<string, string> {
  const names: Record<string, string> = {};
  for (let index = 0; index < andCount; index++) {
    names[`andRules[${index}]`] = `andRules.${index}`;
  }
  for (let index = 0; index < orCount; index++) {
    names[`orRules[${index}]`] = `orRules.${index}`;
  }
  return names;
}
