import { openPeriods, type Schedule } from './hours.js';

/**
 * Business-time arithmetic over a schedule: the SLA clock's due times and consumed minutes. Pure
 * functions, no database. Open periods come from `openPeriods` (the zone's wall clock, holidays and
 * DST handled there), so a due time skips nights, weekends and holidays exactly as the hours read.
 * A `null` schedule means calendar time (a policy without business hours, a team without hours),
 * and so does a schedule that never opens: a target must still fall due.
 */

const MINUTE_MS = 60_000;

/** How many horizons (a year each) the walk looks through before it gives up on a schedule. */
const MAX_HORIZONS = 4;

/** Open periods from `from` onwards, horizon after horizon; ends only when a whole horizon is closed. */
function* periodsFrom(schedule: Schedule, from: number): Generator<{ start: number; end: number }> {
  let cursor = from;
  for (let horizon = 0; horizon < MAX_HORIZONS; horizon++) {
    let last = cursor;
    let found = false;
    for (const period of openPeriods(schedule, new Date(cursor))) {
      if (period.end <= cursor) {
        continue;
      }
      found = true;
      yield { start: Math.max(period.start, cursor), end: period.end };
      last = period.end;
    }
    if (!found || !Number.isFinite(last)) {
      return;
    }
    cursor = last;
  }
}

/** The instant `minutes` of open time after `from` (which is itself returned for zero). */
export function addBusinessMinutes(schedule: Schedule | null, from: Date, minutes: number): Date {
  const start = from.getTime();
  let remaining = minutes * MINUTE_MS;
  if (schedule === null || remaining <= 0) {
    return new Date(start + Math.max(remaining, 0));
  }
  let lastEnd: number | null = null;
  for (const period of periodsFrom(schedule, start)) {
    lastEnd = period.end;
    const available = period.end - period.start;
    if (remaining <= available) {
      return new Date(period.start + remaining);
    }
    remaining -= available;
  }
  // Never open (or open too little for years): the rest in calendar time rather than a target that never falls due.
  return new Date((lastEnd ?? start) + remaining);
}

/** Minutes of open time between two instants (fractional; 0 when `to` is not after `from`). */
export function businessMinutesBetween(schedule: Schedule | null, from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) {
    return 0;
  }
  if (schedule === null) {
    return (end - start) / MINUTE_MS;
  }
  let open = 0;
  let opened = false;
  for (const period of periodsFrom(schedule, start)) {
    opened = true;
    if (period.start >= end) {
      break;
    }
    open += Math.min(period.end, end) - period.start;
  }
  return opened ? open / MINUTE_MS : (end - start) / MINUTE_MS;
}
