import { readBoolean } from '../../db/dialect.js';
import type { TicketOptionRow } from './ticket-option.repository.js';

export function toTicketOption(row: TicketOptionRow) {
  return {
    id: row.id,
    name: row.display_name,
    displayName: row.display_name,
    description: row.description,
    color: row.color,
    isDefault: readBoolean(row.is_default),
    isClosed: readBoolean(row.is_closed),
    pausesSla: readBoolean(row.pauses_sla),
    teamId: row.team_id,
    organizationId: row.organization_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
