import { readBoolean, readJson } from '../../db/dialect.js';
import type { TicketTagView } from '../ticket-tags/ticket-tag.lookup.js';
import type { TicketSnapshotRow } from './ticket-activity.repository.js';
import type { TicketActivityField } from './ticket-activity.table.js';

/**
 * A ticket's values as its timeline shows them, and the entries between two of them. Pure: the
 * recorder reads the states under the ticket's row lock and writes the entries.
 */

interface Named {
  id: string;
  name: string | null;
}

export interface TicketState {
  title: string;
  description: string | null;
  isPrivate: boolean;
  dueDate: string | null;
  status: Named;
  priority: Named;
  type: Named | null;
  assignee: (Named & { email: string | null }) | null;
  team: Named & { identifier: string; ticketIdentifier: string | null };
  account: Named | null;
  tags: Named[];
  customFields: Record<string, unknown>;
  deletedAt: string | null;
}

/** One entry before it is written: the field, and its values with names beside ids. */
export interface ActivityChange {
  field: TicketActivityField;
  oldValue: unknown;
  newValue: unknown;
}

export function stateOf(row: TicketSnapshotRow, tags: readonly TicketTagView[]): TicketState {
  const values = readJson<{ fieldId: string; value: unknown }[]>(row.custom_field_values) ?? [];
  return {
    title: row.title,
    description: row.description,
    isPrivate: readBoolean(row.is_private),
    dueDate: row.due_date,
    status: { id: row.status_id, name: row.status_name },
    priority: { id: row.priority_id, name: row.priority_name },
    type: row.type_id ? { id: row.type_id, name: row.type_name } : null,
    assignee: row.assigned_agent_id ? { id: row.assigned_agent_id, name: row.agent_name, email: row.agent_email } : null,
    team: { id: row.team_id, name: row.team_name, identifier: row.team_identifier, ticketIdentifier: row.ticket_identifier },
    account: row.account_id ? { id: row.account_id, name: row.account_name } : null,
    tags: tags.map((tag) => ({ id: tag.id, name: tag.name })),
    customFields: Object.fromEntries(values.map((entry) => [entry.fieldId, entry.value])),
    deletedAt: row.deleted_at,
  };
}

/** What the `created` entry shows: the ticket as it was asked for, before routing changed anything. */
export function createdValue(state: TicketState) {
  return {
    ticketIdentifier: state.team.ticketIdentifier,
    title: state.title,
    team: state.team,
    status: state.status,
    priority: state.priority,
    type: state.type,
    assignee: state.assignee,
    tags: state.tags,
    isPrivate: state.isPrivate,
    dueDate: state.dueDate,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const idOf = (value: Named | null) => value?.id ?? null;
const tagIds = (tags: Named[]) =>
  tags
    .map((tag) => tag.id)
    .sort()
    .join(',');

/**
 * The entries from `before` to `after`, one per changed field, in a fixed order. Options, people,
 * teams and tags compare by id (a rename is not a change of the ticket); custom fields compare by
 * value, one entry per field (`{fieldId, value}`, the recorder adds the field's name).
 */
export function diffStates(before: TicketState, after: TicketState): ActivityChange[] {
  const changes: ActivityChange[] = [];
  const push = (field: TicketActivityField, oldValue: unknown, newValue: unknown) => changes.push({ field, oldValue, newValue });
  for (const field of ['title', 'description'] as const) {
    if (before[field] !== after[field]) {
      push(field, before[field], after[field]);
    }
  }
  for (const field of ['status', 'priority', 'type', 'assignee', 'account'] as const) {
    if (idOf(before[field]) !== idOf(after[field])) {
      push(field, before[field], after[field]);
    }
  }
  if (before.team.id !== after.team.id || before.team.ticketIdentifier !== after.team.ticketIdentifier) {
    push('team', before.team, after.team);
  }
  if (before.isPrivate !== after.isPrivate) {
    push('isPrivate', before.isPrivate, after.isPrivate);
  }
  if (before.dueDate !== after.dueDate) {
    push('dueDate', before.dueDate, after.dueDate);
  }
  if (tagIds(before.tags) !== tagIds(after.tags)) {
    push('tags', before.tags, after.tags);
  }
  const fieldIds = [...new Set([...Object.keys(before.customFields), ...Object.keys(after.customFields)])].sort();
  for (const fieldId of fieldIds) {
    const oldValue = before.customFields[fieldId] ?? null;
    const newValue = after.customFields[fieldId] ?? null;
    if (!same(oldValue, newValue)) {
      push('customField', { fieldId, value: oldValue }, { fieldId, value: newValue });
    }
  }
  if (before.deletedAt === null && after.deletedAt !== null) {
    push('deleted', null, after.deletedAt);
  }
  return changes;
}
