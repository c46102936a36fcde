import type { Schedule } from '../src/platform/business-hours/hours.js';
import type { DailyConfig, Slot } from '../src/platform/business-hours/hours.schemas.js';

/** Business hours the hours and business-time tests start from: Monday to Friday, 09:00 to 17:00. */
export const NINE_TO_FIVE: Slot[] = [{ start: '09:00', end: '17:00' }];
export const WEEKDAY = { isActive: true, slots: NINE_TO_FIVE };
export const CLOSED = { isActive: false, slots: [] };
export const WEEKDAYS_ONLY: DailyConfig = {
  monday: WEEKDAY,
  tuesday: WEEKDAY,
  wednesday: WEEKDAY,
  thursday: WEEKDAY,
  friday: WEEKDAY,
  saturday: CLOSED,
  sunday: CLOSED,
};

/** Weekdays nine to five in UTC, no holidays, with `overrides`. */
export function weekdaySchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    timezone: 'UTC',
    commonDailyConfig: false,
    commonSlots: NINE_TO_FIVE,
    dailyConfig: WEEKDAYS_ONLY,
    holidays: [],
    ...overrides,
  };
}
