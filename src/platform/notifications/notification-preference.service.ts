import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Principal } from '../../lib/principal.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, toPreferences } from './notification-preference.presenter.js';
import { findNotificationPreferences, upsertNotificationPreferences } from './notification-preference.repository.js';
import type { NotificationPreferences, UpdateNotificationPreferences } from './notification-preference.schemas.js';
import type { UserNotificationPreferenceTable } from './notification-preference.table.js';
/** The caller's switches; the defaults (every kind on, `updatedAt` null) until they change one. */
export async function getNotificationPreferences(db: Kysely<DB>, principal: Principal): Promise<NotificationPreferences> {
  return toPreferences(principal.userId, await findNotificationPreferences(db, principal.organizationId, principal.userId));
}

/** Turns the kinds sent on or off; kinds left out keep their value. An empty body changes nothing. */
export async function updateNotificationPreferences(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  body: UpdateNotificationPreferences,
): Promise<NotificationPreferences> {
  const changes: Updateable<UserNotificationPreferenceTable> = {};
  const columns = [
    ['assigned', 'assigned'],
    ['customerReply', 'customer_reply'],
    ['mentioned', 'mentioned'],
    ['teamUnassigned', 'team_unassigned'],
  ] as const;
  for (const [field, column] of columns) {
    if (body[field] !== undefined) {
      changes[column] = body[field];
    }
  }
  if (Object.keys(changes).length === 0) {
    return getNotificationPreferences(deps.db, principal);
  }
  const at = deps.clock.now().toISOString();
  const defaults = DEFAULT_NOTIFICATION_PREFERENCES;
  const row = await upsertNotificationPreferences(
    deps.db,
    {
      user_id: principal.userId,
      organization_id: principal.organizationId,
      assigned: body.assigned ?? defaults.assigned,
      customer_reply: body.customerReply ?? defaults.customerReply,
      mentioned: body.mentioned ?? defaults.mentioned,
      team_unassigned: body.teamUnassigned ?? defaults.teamUnassigned,
      created_at: at,
      updated_at: at,
    },
    { ...changes, updated_at: at },
  );
  return toPreferences(principal.userId, row);
}
