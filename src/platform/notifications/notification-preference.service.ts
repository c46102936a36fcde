import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { findLiveUser } from '../users/user.lookup.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, toPreferences } from './notification-preference.presenter.js';
import { findNotificationPreferences, upsertNotificationPreferences } from './notification-preference.repository.js';
import type { NotificationPreferences, UpdateNotificationPreferences } from './notification-preference.schemas.js';
import type { UserNotificationPreferenceTable } from './notification-preference.table.js';

/** Whose switches: the caller's own, or a user an admin names. */
type Owner = Pick<Principal, 'organizationId' | 'userId'>;

/** The user's switches; the defaults (every kind on, `updatedAt` null) until they change one. */
export async function getNotificationPreferences(db: Kysely<DB>, owner: Owner): Promise<NotificationPreferences> {
  return toPreferences(owner.userId, await findNotificationPreferences(db, owner.organizationId, owner.userId));
}

/** An admin's view of another user's switches (another organization's user is a 404). */
export async function getNotificationPreferencesOfUser(db: Kysely<DB>, principal: Principal, userId: string) {
  return getNotificationPreferences(db, await requireOwner(db, principal, userId));
}

/** An admin turns another user's kinds on or off, as that user could. */
export async function updateNotificationPreferencesOfUser(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  userId: string,
  body: UpdateNotificationPreferences,
) {
  return updateNotificationPreferences(deps, await requireOwner(deps.db, principal, userId), body);
}

async function requireOwner(db: Kysely<DB>, principal: Principal, userId: string): Promise<Owner> {
  requireOrgAdmin(principal);
  const user = await findLiveUser(db, principal.organizationId, userId);
  if (!user) {
    throw AppError.notFound('User not found!');
  }
  return { organizationId: principal.organizationId, userId: user.id };
}

/** Turns the kinds sent on or off; kinds left out keep their value. An empty body changes nothing. */
export async function updateNotificationPreferences(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Owner,
  body: UpdateNotificationPreferences,
): Promise<NotificationPreferences> {
  const changes: Updateable<UserNotificationPreferenceTable> = {};
  const columns = [
    ['assigned', 'assigned'],
    ['customerReply', 'customer_reply'],
    ['mentioned', 'mentioned'],
    ['teamUnassigned', 'team_unassigned'],
    ['slaAlerts', 'sla_alerts'],
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
      sla_alerts: body.slaAlerts ?? defaults.slaAlerts,
      created_at: at,
      updated_at: at,
    },
    { ...changes, updated_at: at },
  );
  return toPreferences(principal.userId, row);
}
