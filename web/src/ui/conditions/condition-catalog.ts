import { api, unwrap } from '../../api/client';
import type { DataOf } from '../../api/types';
import { useCursorPages } from '../use-cursor-pages';
import { type ConditionDraft, type FieldKind, OPERATORS_BY_KIND, operatorLabel } from './conditions';

/**
 * What a condition can test and what its value is picked from: the fields of routing rules and
 * SLA policies, each page building its list (a team's priorities, or every team's) from these pieces.
 */

export interface Choice {
  value: string;
  label: string;
}

/** A field a condition can test, with what its value is picked from. */
export interface FieldChoice {
  id: string;
  label: string;
  kind: FieldKind;
  /** The values to pick from, for an option or tags field. */
  options: Choice[];
  inputType: 'text' | 'number';
  /** Accounts are many: their list is read a page at a time. */
  paged?: boolean;
}

/** The accounts read so far, and the way to read more. */
export interface AccountPages {
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

export interface ConditionCatalog {
  fields: FieldChoice[];
  accounts: AccountPages;
  fieldOf: (id: string) => FieldChoice;
  describe: (draft: ConditionDraft) => string;
}

export type TicketField = DataOf<'/v1/custom-field', 'get'>[number];
type AccountChoice = DataOf<'/v1/accounts', 'get'>[number];

const CHOICE_TYPES = new Set(['single_choice', 'multi_choice', 'radio_button', 'checkbox']);
const NUMBER_TYPES = new Set(['integer', 'decimal', 'currency']);

export function customFieldChoice(field: TicketField): FieldChoice {
  const choice = CHOICE_TYPES.has(field.fieldType);
  return {
    id: `customField.${field.uid}`,
    label: field.name,
    kind: choice ? 'option' : 'text',
    options: choice ? field.options.map((option) => ({ value: option, label: option })) : [],
    inputType: NUMBER_TYPES.has(field.fieldType) ? 'number' : 'text',
  };
}

export const fieldChoice = (id: string, label: string, kind: FieldKind, options: Choice[] = []): FieldChoice => ({
  id,
  label,
  kind,
  options,
  inputType: 'text',
});

/** Statuses or priorities as a condition picks them: by name, shown by display name. */
export const optionChoices = (list: readonly { name: string; displayName: string }[] | undefined): Choice[] =>
  (list ?? []).map((option) => ({ value: option.name, label: option.displayName }));

/** A page of accounts: the API answers the list and puts the next page's cursor in a header. */
async function accountsPage(cursor: string | undefined) {
  const call = api.GET('/v1/accounts', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
  const data = await unwrap(call);
  return { data, nextCursor: (await call).response.headers.get('x-next-cursor') };
}

/** The organization's accounts, a page at a time, as the Account field's values. */
export function useAccountChoices() {
  const accounts = useCursorPages(['accounts', 'condition-choices'], accountsPage);
  return {
    options: accounts.items.map((account: AccountChoice): Choice => ({ value: account.id, label: account.name })),
    pages: { hasMore: accounts.hasMore, loadingMore: accounts.loadingMore, loadMore: () => void accounts.loadMore() },
  };
}

/** The catalog of `fields`: a field by id (an unknown one as text), and a condition in words. */
export function conditionCatalog(fields: FieldChoice[], accounts: AccountPages): ConditionCatalog {
  const fieldOf = (id: string) => fields.find((candidate) => candidate.id === id) ?? fieldChoice(id, id, 'text');
  return { fields, accounts, fieldOf, describe: (draft) => describeCondition(fieldOf(draft.field), draft) };
}

/** One condition in words: `Priority is High`, `Tags has vip`. */
function describeCondition(choice: FieldChoice, draft: ConditionDraft): string {
  const label = (value: string) =>
    choice.options.find((option) => option.value.toLowerCase() === value.toLowerCase())?.label ?? value;
  const operator = operatorLabel(choice.kind, draft.operator);
  if (draft.operator === 'is_empty' || draft.operator === 'is_not_empty') {
    return choice.kind === 'tags' ? `${operator}` : `${choice.label} ${operator}`;
  }
  const value = draft.operator === 'in' ? draft.values.map(label).join(', ') : `"${label(draft.value)}"`;
  return `${choice.label} ${operator} ${value}`;
}

/** The operators a field offers, with the one a stored condition uses even if the field would not offer it. */
export function operatorsOf(choice: FieldChoice, current: string): Choice[] {
  const operators = OPERATORS_BY_KIND[choice.kind];
  const all = operators.includes(current) || current === '' ? operators : [...operators, current];
  return all.map((operator) => ({ value: operator, label: operatorLabel(choice.kind, operator) }));
}
