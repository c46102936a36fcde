import type { ActorType, EventType } from '../../shared/event-types.js';

/** One thing that happened in an organization, written in the transaction of the change. */
export interface EventTable {
  organization_id: string;
  /** The event's place in the organization's log, 1 upwards, in commit order (see `event.recorder.ts`). */
  seq: number;
  type: EventType;
  occurred_at: string;
  actor_type: ActorType;
  actor_id: string | null;
  actor_name: string | null;
  /** JSON: the resource as the API answered it after the change. */
  data: string;
  /** JSON: for `ticket.updated`, the changed fields `[{field, oldValue, newValue}]`; otherwise null. */
  changes: string | null;
  /** Visibility, so readers filter without reading the resource again: the ticket concerned, its team … */
  ticket_id: string | null;
  team_id: string | null;
  /** … whether the ticket is private (only its team and admins see it) … */
  ticket_is_private: boolean | number;
  /** … and whether the event is about an internal comment (never shown to customers). */
  is_internal: boolean | number;
  /** … and, for something private to one user (a private account note), that user: only they and admins see it. */
  private_to_user_id: string | null;
}

/** The last number taken in each organization's log; its row lock orders the writers. */
export interface EventSequenceTable {
  organization_id: string;
  last_seq: number;
}
