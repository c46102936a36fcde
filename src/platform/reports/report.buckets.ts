import { DateTime } from 'luxon';
import type { ReportInterval } from './report.schemas.js';

/**
 * Buckets of local days: a day, the week from Monday, the month from the 1st. Days are
 * `YYYY-MM-DD` text (each team's local dates, as the aggregates store them). Pure.
 */

const dayOf = (day: string) => DateTime.fromISO(day, { zone: 'utc' });
const text = (date: DateTime) => date.toISODate() ?? '';

export function bucketStart(day: string, interval: ReportInterval): string {
  const date = dayOf(day);
  if (interval === 'week') {
    return text(date.minus({ days: date.weekday - 1 }));
  }
  return interval === 'month' ? text(date.startOf('month')) : day;
}

/** `bucketStart` for a report's rows: each distinct day computed once (its rows share a few hundred days). */
export function bucketStarter(interval: ReportInterval): (day: string) => string {
  if (interval === 'day') {
    return (day) => day;
  }
  const starts = new Map<string, string>();
  return (day) => {
    let start = starts.get(day);
    if (start === undefined) {
      start = bucketStart(day, interval);
      starts.set(day, start);
    }
    return start;
  };
}

/** The starts of every bucket that holds a day from `from` through `to`, in order. */
export function bucketStarts(from: string, to: string, interval: ReportInterval): string[] {
  const step = interval === 'week' ? { weeks: 1 } : interval === 'month' ? { months: 1 } : { days: 1 };
  const starts: string[] = [];
  for (let date = dayOf(bucketStart(from, interval)); text(date) <= to; date = date.plus(step)) {
    starts.push(text(date));
  }
  return starts;
}

/** Days from `from` through `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round(dayOf(to).diff(dayOf(from), 'days').days) + 1;
}
