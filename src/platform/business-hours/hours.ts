import { DateTime, IANAZone } from 'luxon';
import { AppError } from '../../lib/errors.js';
import { type DailyConfig, type DayConfig, type Slot, WEEKDAYS, type Weekday } from './hours.schemas.js';

/**
 * Business hours: validation of what a client sends, and open/closed computed from a schedule.
 * Pure functions, no database. Every slot time and holiday is local to the schedule's time zone.
 */

/** The hour fields a request may carry, as sent (each optional). */
export interface HoursInput {
  timezone?: string | null;
  commonSlots?: Slot[];
  dailyConfig?: DailyConfig;
  holidays?: string[];
}

/** Hours as stored for a team (or a user, without holidays). */
export interface Schedule {
  timezone: string;
  commonDailyConfig: boolean;
  commonSlots: Slot[];
  dailyConfig: DailyConfig;
  holidays: string[];
}

export interface BusinessHoursStatus {
  isOpen: boolean;
  /** The next moment after `at` when it opens; null if it does not within the horizon. */
  nextOpeningAt: string | null;
  /** When the open period running at `at` (or else the next one) ends; null if not within the horizon. */
  nextClosingAt: string | null;
}

/** How many days after the local day of `at` the computed reads look ahead. */
export const HORIZON_DAYS = 366;

const MINUTES_PER_DAY = 24 * 60;
const TIME_OF_DAY = /^([01][0-9]|2[0-3]):([0-5][0-9])$|^24:00$/;
const HOLIDAY = /^([0-9]{2})-([0-9]{2})(?:-([0-9]{4}))?$/;
/** A leap year, so that the yearly holiday `29-02` counts as a real date. */
const ANY_LEAP_YEAR = 2000;

type FieldPath = (string | number)[];

/** `dailyConfig.monday.slots[1]`: how messages name a field. */
function label(path: FieldPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

function fail(path: FieldPath, text: string, rule: string): AppError {
  return AppError.invalid(`${label(path)} ${text}`, { location: 'body', path, rule, message: text });
}

/** Minutes since local midnight (0..1440), or null when the text is not `HH:MM` / `24:00`. */
export function minutesOf(time: string): number | null {
  const match = TIME_OF_DAY.exec(time);
  if (!match) {
    return null;
  }
  return match[1] === undefined ? MINUTES_PER_DAY : Number(match[1]) * 60 + Number(match[2]);
}

/** Throws a 400 `AppError` naming the first bad field; fields left out are not checked. */
export function validateHours(input: HoursInput): void {
  if (input.timezone !== undefined && input.timezone !== null && !IANAZone.isValidZone(input.timezone)) {
    throw fail(['timezone'], 'must be a valid IANA time zone', 'timezone');
  }
  if (input.commonSlots) {
    validateSlots(input.commonSlots, ['commonSlots']);
  }
  for (const [day, config] of Object.entries(input.dailyConfig ?? {})) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) {
      throw fail(['dailyConfig', day], 'is not a day of the week', 'additionalProperties');
    }
    if (config) {
      validateSlots(config.slots, ['dailyConfig', day, 'slots']);
    }
  }
  input.holidays?.forEach((holiday, index) => {
    validateHoliday(holiday, ['holidays', index]);
  });
}

function validateSlots(slots: Slot[], path: FieldPath): void {
  const spans = slots.map((slot, index) => ({ index, ...slotSpan(slot, [...path, index]) }));
  spans.sort((a, b) => a.start - b.start || a.index - b.index);
  let previous: (typeof spans)[number] | undefined;
  for (const span of spans) {
    // Sorted by start and overlap-free so far, the previous span reaches furthest.
    if (previous && span.start < previous.end) {
      const [first, second] = previous.index < span.index ? [previous, span] : [span, previous];
      throw fail([...path, second.index], `overlaps ${label([...path, first.index])}`, 'slotOverlap');
    }
    previous = span;
  }
}

function slotSpan(slot: Slot, path: FieldPath): { start: number; end: number } {
  const start = minutesOf(slot.start);
  const end = minutesOf(slot.end);
  if (start === null || start === MINUTES_PER_DAY) {
    throw fail([...path, 'start'], 'must be a time HH:MM from 00:00 to 23:59', 'timeOfDay');
  }
  if (end === null) {
    throw fail([...path, 'end'], 'must be a time HH:MM from 00:00 to 24:00', 'timeOfDay');
  }
  if (start >= end) {
    throw fail(path, `must start before it ends (${slot.start} is not before ${slot.end})`, 'slotOrder');
  }
  return { start, end };
}

function validateHoliday(holiday: string, path: FieldPath): void {
  const match = HOLIDAY.exec(holiday);
  if (!match) {
    throw fail(path, `${holiday} must be a date DD-MM (every year) or DD-MM-YYYY`, 'holidayFormat');
  }
  const [, day, month, year] = match;
  if (!DateTime.utc(year ? Number(year) : ANY_LEAP_YEAR, Number(month), Number(day)).isValid) {
    throw fail(path, `${holiday} is not a real date`, 'holidayDate');
  }
}

/** An open interval in epoch milliseconds; `end` is exclusive and may be `Infinity` (open past the horizon). */
export interface Period {
  start: number;
  end: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * A zone's wall clock turned into instants. Local calendar dates are written as the epoch
 * milliseconds of that date's UTC midnight (`day`). Offsets at UTC midnights are remembered for
 * one computation, since a year of days would otherwise ask `Intl` for them over and over.
 */
class ZoneClock {
  private readonly midnightOffsets = new Map<number, number>();

  constructor(readonly zone: IANAZone) {}

  static of(timezone: string): ZoneClock {
    const zone = IANAZone.create(timezone);
    if (!zone.isValid) {
      throw new Error(`Schedule has an unknown time zone: ${timezone}`);
    }
    return new ZoneClock(zone);
  }

  /** The local calendar date of an instant. */
  dayOf(instant: number): number {
    return Math.floor((instant + this.zone.offset(instant) * MINUTE_MS) / DAY_MS) * DAY_MS;
  }

  /**
   * The instant `minutes` after the start of local date `day` (1440 is the next midnight), read
   * as iCalendar does (RFC 5545 §3.3.5): a time skipped by a spring-forward change moves forward
   * by the gap; a time that happens twice when clocks go back is its first occurrence.
   */
  instant(day: number, minutes: number): number {
    const wall = day + minutes * MINUTE_MS;
    const offsets = [-1, 0, 1, 2].map((shift) => this.midnightOffset(day + shift * DAY_MS));
    if (offsets.every((offset) => offset === offsets[0])) {
      return wall - (offsets[0] ?? 0) * MINUTE_MS;
    }
    const before = this.zone.offset(wall - DAY_MS);
    const after = this.zone.offset(wall + DAY_MS);
    const matches = [wall - before * MINUTE_MS, wall - after * MINUTE_MS].filter(
      (candidate) => candidate + this.zone.offset(candidate) * MINUTE_MS === wall,
    );
    return matches.length > 0 ? Math.min(...matches) : wall - before * MINUTE_MS;
  }

  private midnightOffset(utcMidnight: number): number {
    let offset = this.midnightOffsets.get(utcMidnight);
    if (offset === undefined) {
      offset = this.zone.offset(utcMidnight);
      this.midnightOffsets.set(utcMidnight, offset);
    }
    return offset;
  }
}

const pad = (value: number) => String(value).padStart(2, '0');

export type Week = Record<Weekday, DayConfig>;

const CLOSED_DAY: DayConfig = { isActive: false, slots: [] };

/**
 * The week as it applies, the one reading of the hour fields that both the computed reads and the
 * configuration responses use, so the two never disagree. With `commonDailyConfig`, `commonSlots`
 * apply to every day of the week, Saturday and Sunday included (the contract's "one common set
 * of slots applies to every day"), whatever `dailyConfig` holds. Otherwise each day is as
 * configured (an inactive day keeps its slots for later but is closed), and a day never
 * configured is closed.
 */
export function effectiveWeek(hours: Pick<Schedule, 'commonDailyConfig' | 'commonSlots' | 'dailyConfig'>): Week {
  const dayOf = (weekday: Weekday): DayConfig =>
    hours.commonDailyConfig ? { isActive: true, slots: hours.commonSlots } : (hours.dailyConfig[weekday] ?? CLOSED_DAY);
  return Object.fromEntries(WEEKDAYS.map((weekday) => [weekday, dayOf(weekday)])) as Week;
}

/** The slots that apply on a local calendar date. */
function slotsOn(week: Week, holidays: Set<string>, day: number): Slot[] {
  const date = new Date(day);
  const dayMonth = `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}`;
  if (holidays.has(dayMonth) || holidays.has(`${dayMonth}-${date.getUTCFullYear()}`)) {
    return [];
  }
  const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7];
  const config = weekday ? week[weekday] : undefined;
  return config?.isActive ? config.slots : [];
}

/** Open intervals day by day, from local date `firstDay` through `days` more days, in order. */
function* openIntervals(schedule: Schedule, clock: ZoneClock, firstDay: number, days: number): Generator<Period> {
  const holidays = new Set(schedule.holidays);
  const week = effectiveWeek(schedule);
  for (let offset = 0; offset <= days; offset++) {
    const day = firstDay + offset * DAY_MS;
    const intervals = slotsOn(week, holidays, day)
      .map((slot) => ({
        start: clock.instant(day, minutesOf(slot.start) ?? 0),
        end: clock.instant(day, minutesOf(slot.end) ?? 0),
      }))
      .filter((interval) => interval.start < interval.end)
      .sort((a, b) => a.start - b.start);
    yield* intervals;
  }
}

/** Intervals up to the horizon, joined where one ends as the next starts (`21:00-24:00`, `00:00-02:00`). */
export function* openPeriods(schedule: Schedule, from: Date): Generator<Period> {
  const clock = ZoneClock.of(schedule.timezone);
  const firstDay = clock.dayOf(from.getTime());
  const horizonEnd = clock.instant(firstDay + HORIZON_DAYS * DAY_MS, MINUTES_PER_DAY);
  let current: Period | undefined;
  for (const interval of openIntervals(schedule, clock, firstDay, HORIZON_DAYS)) {
    if (current && interval.start <= current.end) {
      current.end = Math.max(current.end, interval.end);
      continue;
    }
    if (current) {
      yield current;
    }
    current = { ...interval };
  }
  if (current) {
    yield { start: current.start, end: current.end >= horizonEnd ? Number.POSITIVE_INFINITY : current.end };
  }
}

const isoOrNull = (millis: number | null): string | null =>
  millis === null || !Number.isFinite(millis) ? null : new Date(millis).toISOString();

/** Whether the schedule is open at `at`, and when it next opens and closes. */
export function businessHoursStatus(schedule: Schedule, at: Date): BusinessHoursStatus {
  const now = at.getTime();
  let closing: number | null = null;
  for (const period of openPeriods(schedule, at)) {
    if (period.end <= now) {
      continue;
    }
    if (period.start <= now) {
      closing = period.end;
      continue;
    }
    return { isOpen: closing !== null, nextOpeningAt: isoOrNull(period.start), nextClosingAt: isoOrNull(closing ?? period.end) };
  }
  return { isOpen: closing !== null, nextOpeningAt: null, nextClosingAt: isoOrNull(closing) };
}

/** Whether `at` falls in an open slot; only the local day of `at` is looked at. */
export function isWithinHours(schedule: Schedule, at: Date): boolean {
  const now = at.getTime();
  const clock = ZoneClock.of(schedule.timezone);
  for (const interval of openIntervals(schedule, clock, clock.dayOf(now), 0)) {
    if (interval.start > now) {
      return false;
    }
    if (now < interval.end) {
      return true;
    }
  }
  return false;
}
