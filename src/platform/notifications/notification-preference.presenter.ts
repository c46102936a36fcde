import { readBoolean } from '../../db/dialect.js';
import type { NotificationPreferenceRow } from './notification-preference.repository.js';
import type { NotificationPreferences } from './notification-preference.schemas.js';

/** Every kind is on until the user turns it off. */
export const DEFAULT_NOTIFICATION_PREFERENCES = {
  assigned: true,
  customerReply: true,
  mentioned: true,
  teamUnassigned: true,
  slaAlerts: true,
} as const;

export function toPreferences(userId: string, row: NotificationPreferenceRow | undefined): NotificationPreferences {
  if (!row) {
    return { userId, ...DEFAULT_NOTIFICATION_PREFERENCES, updatedAt: null };
  }
  return {
    userId,
    assigned: readBoolean(row.assigned),
    customerReply: readBoolean(row.customer_reply),
    mentioned: readBoolean(row.mentioned),
    teamUnassigned: readBoolean(row.team_unassigned),
    slaAlerts: readBoolean(row.sla_alerts),
    updatedAt: row.updated_at,
  };
}
