import { History } from 'lucide-react';
import type { TicketActivity } from '../api/types';

const FIELD_NAMES: Record<TicketActivity['field'], string> = {
  created: 'created the ticket',
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  type: 'type',
  assignee: 'assignee',
  account: 'account',
  team: 'team',
  isPrivate: 'privacy',
  dueDate: 'due date',
  tags: 'tags',
  customField: 'a field',
  merged: 'merged the ticket',
  deleted: 'deleted the ticket',
  requestor: 'requester',
};

/** A timeline value as words: `{id, name}` by name, lists joined, nothing as "none". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return 'none';
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? 'none' : value.map(describeValue).join(', ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const name = record.name ?? record.ticketIdentifier ?? record.email ?? record.value ?? record.id;
    return typeof name === 'string' || typeof name === 'number' ? String(name) : JSON.stringify(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'yes' : 'no';
  }
  return String(value);
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One line of the timeline between the comments. */
export function ActivityItem({ activity }: { activity: TicketActivity }) {
  const actor = activity.actor.name ?? (activity.actor.type === 'system' ? 'Switchboard' : 'Someone');
  const event = activity.field === 'created' || activity.field === 'merged' || activity.field === 'deleted';
  return (
    <p className="flex items-start gap-2 px-1 text-xs text-zinc-500 dark:text-zinc-400">
      <History size={12} aria-hidden className="mt-0.5 shrink-0" />
      <span>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">{actor}</span>{' '}
        {event
          ? FIELD_NAMES[activity.field]
          : `changed ${FIELD_NAMES[activity.field]} from ${describeValue(activity.oldValue)} to ${describeValue(activity.newValue)}`}{' '}
        · <time dateTime={activity.createdAt}>{when.format(new Date(activity.createdAt))}</time>
      </span>
    </p>
  );
}
