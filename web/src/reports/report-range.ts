/**
 * The date ranges of the reports page: `from` and `to` are local days (YYYY-MM-DD), both included,
 * as the API reads them. A preset ends today, on the browser's calendar.
 */

export const RANGE_PRESETS = [
  { value: '7d', label: 'Last 7 days', days: 7 },
  { value: '30d', label: 'Last 30 days', days: 30 },
  { value: '90d', label: 'Last 90 days', days: 90 },
] as const;

export type RangePreset = (typeof RANGE_PRESETS)[number]['value'];
export type RangeChoice = RangePreset | 'custom';

export interface DayRange {
  from: string;
  to: string;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A local date's day, YYYY-MM-DD (not `toISOString`, which is UTC's day). */
export function dayOf(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whether the text is a real calendar day (2026-02-30 is not). */
export function isDay(text: string): boolean {
  const match = DAY_PATTERN.exec(text);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

/** The local midnight a day starts at. */
export function startOfDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date);
}

/** The preset's days, ending with `today` (both ends included: the last 7 days are today and the 6 before). */
export function presetRange(preset: RangePreset, today: Date): DayRange {
  const days = RANGE_PRESETS.find((candidate) => candidate.value === preset)?.days ?? 30;
  const first = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: dayOf(first), to: dayOf(today) };
}
