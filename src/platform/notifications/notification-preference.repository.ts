import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { UserNotificationPreferenceTable } from './notification-preference.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const PREFERENCE_COLUMNS = [
  'user_id',
  'organization_id',
  'assigned',
  'customer_reply',
  'mentioned',
  'team_unassigned',
  'sla_alerts',
  'created_at',
  'updated_at',
] as const;

export async function findNotificationPreferences(db: Db, organizationId: string, userId: string) {
  return db
    .selectFrom('user_notification_preferences')
    .select(PREFERENCE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export type NotificationPreferenceRow = NonNullable<Awaited<ReturnType<typeof findNotificationPreferences>>>;

/**
 * Writes the switches sent, in one statement: the row with the defaults and these switches when
 * the user has none yet, else only these switches. Two concurrent changes of different switches
 * both land; neither reads and rewrites the other's.
 */
export async function upsertNotificationPreferences(
  db: Db,
  row: UserNotificationPreferenceTable,
  changes: Updateable<UserNotificationPreferenceTable>,
): Promise<NotificationPreferenceRow> {
  return db
    .insertInto('user_notification_preferences')
    .values(row)
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(changes))
    .returning(PREFERENCE_COLUMNS)
    .executeTakeFirstOrThrow();
}
