import { readJson } from '../../db/dialect.js';
import type { TicketActivityRow } from './ticket-activity.repository.js';

/** Routing and the system by the name stored with the entry; people by their current name. */
function actorName(row: TicketActivityRow): string | null {
  if (row.actor_name !== null) {
    return row.actor_name;
  }
  if (row.actor_type === 'customer_contact') {
    const name = [row.contact_first_name, row.contact_last_name].filter(Boolean).join(' ');
    return name || row.contact_email;
  }
  return row.user_name;
}

export function toTicketActivity(row: TicketActivityRow) {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    field: row.field,
    oldValue: readJson<unknown>(row.old_value),
    newValue: readJson<unknown>(row.new_value),
    actor: { type: row.actor_type, id: row.actor_id, name: actorName(row) },
    createdAt: row.created_at,
  };
}
