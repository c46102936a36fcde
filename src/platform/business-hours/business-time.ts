import type { Schedule } from './hours.js';
import { openPeriods } from './hours.js';

const MINUTE_MS = 60_000;

/**
 * The whole minutes of the schedule's open time between `from` and `to` (0 when `to` is not after
 * `from`): the overlap of [from, to) with the open periods of `hours.ts`, nights, weekends and
 * holidays skipped in the schedule's time zone. Pure. Open time further than the horizon of
 * `openPeriods` (a year after `from`) is counted as open when the last period runs past it.
 */
export function businessMinutesBetween(schedule: Schedule, from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) {
    return 0;
  }
  let open = 0;
  for (const period of openPeriods(schedule, from)) {
    if (period.start >= end) {
      break;
    }
    const overlap = Math.min(period.end, end) - Math.max(period.start, start);
    if (overlap > 0) {
      open += overlap;
    }
  }
  return Math.floor(open / MINUTE_MS);
}
