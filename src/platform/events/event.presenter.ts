import { readJson } from '../../db/dialect.js';
import type { EventRow } from './event.repository.js';

/** An event's public id: its number, zero-padded so that ids sort as the log does. */
export function eventId(seq: number): string {
  return String(seq).padStart(16, '0');
}

export function toEvent(row: EventRow) {
  return {
    id: eventId(Number(row.seq)),
    type: row.type,
    organizationId: row.organization_id,
    occurredAt: row.occurred_at,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    data: readJson<unknown>(row.data),
    changes: readJson<{ field: string; oldValue: unknown; newValue: unknown }[]>(row.changes),
  };
}

export type Event = ReturnType<typeof toEvent>;
