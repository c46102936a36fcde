import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { validateHours } from '../business-hours/hours.js';
import type { DailyConfig, UpdateUserBusinessHours, UserBusinessHours } from '../business-hours/hours.schemas.js';
import { DEFAULT_DAILY_CONFIG } from '../team-configurations/team-configuration.defaults.js';
import { toUserBusinessHours } from './user-business-hours.presenter.js';
import {
  findUserBusinessHours,
  findUserTimezone,
  insertUserBusinessHoursIfMissing,
  lockUserBusinessHours,
  type UserBusinessHoursRow,
  updateUserBusinessHours as updateHoursRow,
  updateUserTimezone,
} from './user-business-hours.repository.js';
import type { UserBusinessHoursTable } from './user-business-hours.table.js';

/** What a user's hours start as: a new team's hours, in the user's own zone if they have one. */
function defaultUserBusinessHours(principal: Principal, timezone: string | null, at: string): UserBusinessHoursTable {
  return {
    user_id: principal.userId,
    organization_id: principal.organizationId,
    timezone,
    common_daily_config: false,
    common_slots: JSON.stringify([{ start: '09:00', end: '17:00' }]),
    daily_config: JSON.stringify(DEFAULT_DAILY_CONFIG),
    created_at: at,
    updated_at: at,
  };
}

/** The caller's hours; the defaults (with null timestamps) until they first save some. */
export async function getUserBusinessHours(db: Kysely<DB>, principal: Principal): Promise<UserBusinessHours> {
  const row = await findUserBusinessHours(db, principal.organizationId, principal.userId);
  if (row) {
    return toUserBusinessHours(row, true);
  }
  const timezone = await findUserTimezone(db, principal.organizationId, principal.userId);
  return toUserBusinessHours(defaultUserBusinessHours(principal, timezone, ''), false);
}

const json = (value: unknown): string | undefined => (value === undefined ? undefined : (writeJson(value) ?? 'null'));

function hoursChanges(row: UserBusinessHoursRow, body: UpdateUserBusinessHours): Updateable<UserBusinessHoursTable> {
  const dailyConfig = body.dailyConfig && { ...(readJson<DailyConfig>(row.daily_config) ?? {}), ...body.dailyConfig };
  const changes: Updateable<UserBusinessHoursTable> = {
    timezone: body.timezone,
    common_daily_config: body.commonDailyConfig,
    common_slots: json(body.commonSlots),
    daily_config: json(dailyConfig),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

/**
 * Saves the fields sent of the caller's hours, creating the row with the defaults on first use;
 * `dailyConfig` replaces only the days it names. A `timezone` sent is also the user's own zone.
 */
export async function updateUserBusinessHours(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  body: UpdateUserBusinessHours,
): Promise<UserBusinessHours> {
  validateHours(body);
  const { organizationId, userId } = principal;
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now().toISOString();
    const timezone = await findUserTimezone(trx, organizationId, userId);
    await insertUserBusinessHoursIfMissing(trx, defaultUserBusinessHours(principal, timezone, now));
    const row = await lockUserBusinessHours(trx, organizationId, userId);
    if (!row) {
      throw AppError.notFound('User not found!');
    }
    const changes = hoursChanges(row, body);
    if (Object.keys(changes).length > 0) {
      await updateHoursRow(trx, organizationId, userId, { ...changes, updated_at: now });
    }
    if (body.timezone !== undefined) {
      await updateUserTimezone(trx, organizationId, userId, body.timezone, now);
    }
    const saved = await findUserBusinessHours(trx, organizationId, userId);
    return toUserBusinessHours(saved ?? row, true);
  });
}
