import { useQuery } from '@tanstack/react-query';
import { useCursorPages } from '../../ui/use-cursor-pages';
import {
  type AccountChoice,
  accountsPage,
  prioritiesQuery,
  statusesQuery,
  type TicketField,
  teamTagsQuery,
  ticketFieldsQuery,
} from './routing-api';
import { type ConditionDraft, type FieldKind, OPERATORS_BY_KIND, operatorLabel, REQUESTOR_DOMAIN } from './routing-conditions';

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

const CHOICE_TYPES = new Set(['single_choice', 'multi_choice', 'radio_button', 'checkbox']);
const NUMBER_TYPES = new Set(['integer', 'decimal', 'currency']);

function customFieldChoice(field: TicketField): FieldChoice {
  const choice = CHOICE_TYPES.has(field.fieldType);
  return {
    id: `customField.${field.uid}`,
    label: field.name,
    kind: choice ? 'option' : 'text',
    options: choice ? field.options.map((option) => ({ value: option, label: option })) : [],
    inputType: NUMBER_TYPES.has(field.fieldType) ? 'number' : 'text',
  };
}

const accountChoice = (account: AccountChoice): Choice => ({ value: account.id, label: account.name });

const field = (id: string, label: string, kind: FieldKind, options: Choice[] = []): FieldChoice => ({
  id,
  label,
  kind,
  options,
  inputType: 'text',
});

/**
 * What conditions of `teamId`'s rules can test: the ticket's own fields, the team's priorities,
 * statuses and tags, the organization's accounts and the ticket fields of the team and organization.
 */
export function useConditionCatalog(teamId: string): ConditionCatalog {
  const priorities = useQuery(prioritiesQuery(teamId));
  const statuses = useQuery(statusesQuery(teamId));
  const tags = useQuery(teamTagsQuery(teamId));
  const customFields = useQuery(ticketFieldsQuery(teamId));
  const accounts = useCursorPages(['accounts', 'routing-choices'], accountsPage);
  const optionChoices = (list: { name: string; displayName: string }[] | undefined) =>
    (list ?? []).map((option) => ({ value: option.name, label: option.displayName }));
  const fields: FieldChoice[] = [
    field('title', 'Title', 'text'),
    field('description', 'Description', 'text'),
    field('priority', 'Priority', 'option', optionChoices(priorities.data)),
    field('status', 'Status', 'option', optionChoices(statuses.data)),
    field('source', 'Source', 'text'),
    field('requestorEmail', 'Requestor email', 'text'),
    field(REQUESTOR_DOMAIN, 'Requestor domain', 'domain'),
    { ...field('accountId', 'Account', 'option', accounts.items.map(accountChoice)), paged: true },
    field(
      'tags',
      'Tags',
      'tags',
      (tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name })),
    ),
    ...(customFields.data ?? []).map(customFieldChoice),
  ];
  const fieldOf = (id: string) => fields.find((candidate) => candidate.id === id) ?? field(id, id, 'text');
  return {
    fields,
    accounts: { hasMore: accounts.hasMore, loadingMore: accounts.loadingMore, loadMore: () => void accounts.loadMore() },
    fieldOf,
    describe: (draft) => describeCondition(fieldOf(draft.field), draft),
  };
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

/** The operators a field offers, with the one a stored rule uses even if the field would not offer it. */
export function operatorsOf(choice: FieldChoice, current: string): Choice[] {
  const operators = OPERATORS_BY_KIND[choice.kind];
  const all = operators.includes(current) || current === '' ? operators : [...operators, current];
  return all.map((operator) => ({ value: operator, label: operatorLabel(choice.kind, operator) }));
}
