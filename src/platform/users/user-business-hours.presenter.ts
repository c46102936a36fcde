import { readBoolean, readJson } from '../../db/dialect.js';
import { effectiveWeek } from '../business-hours/hours.js';
import type { DailyConfig, Slot, UserBusinessHours } from '../business-hours/hours.schemas.js';
import type { UserBusinessHoursRow } from './user-business-hours.repository.js';

/** `dailyConfig` is the week as routing applies it (`effectiveWeek`), as for team configurations. */
export function toUserBusinessHours(row: UserBusinessHoursRow, saved: boolean): UserBusinessHours {
  const commonDailyConfig = readBoolean(row.common_daily_config);
  const commonSlots = readJson<Slot[]>(row.common_slots) ?? [];
  return {
    timezone: row.timezone,
    userId: row.user_id,
    dailyConfig: effectiveWeek({ commonDailyConfig, commonSlots, dailyConfig: readJson<DailyConfig>(row.daily_config) ?? {} }),
    commonDailyConfig,
    commonSlots,
    createdAt: saved ? row.created_at : null,
    updatedAt: saved ? row.updated_at : null,
  };
}
