import type { ActorType } from '../../shared/event-types.js';

/** What an entry records: a field of the ticket, or an event (`created`, `merged`, `deleted`). */
export const TICKET_ACTIVITY_FIELDS = [
  'created',
  'title',
  'description',
  'status',
  'priority',
  'type',
  'assignee',
  'account',
  'team',
  'isPrivate',
  'dueDate',
  'tags',
  'customField',
  'merged',
  'deleted',
  /** A chat ticket's requestor, once an anonymous visitor left an address. */
  'requestor',
] as const;
export type TicketActivityField = (typeof TICKET_ACTIVITY_FIELDS)[number];

/** One entry of a ticket's timeline: a field's old and new value (JSON, names beside ids), and who changed it. */
export interface TicketActivityTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  /** The entry's place in the ticket's timeline, 1 upwards. */
  seq: number;
  field: TicketActivityField;
  old_value: string | null;
  new_value: string | null;
  actor_type: ActorType;
  actor_id: string | null;
  /** The actor's name when the change was made. */
  actor_name: string | null;
  created_at: string;
}
