import { describe, expect, it } from 'vitest';
import { businessMinutesBetween } from './business-time.js';
import type { Schedule } from './hours.js';
import type { DailyConfig } from './hours.schemas.js';

const WEEKDAY = { isActive: true, slots: [{ start: '09:00', end: '17:00' }] };
const CLOSED = { isActive: false, slots: [] };
const WEEKDAYS_ONLY: DailyConfig = {
  monday: WEEKDAY,
  tuesday: WEEKDAY,
  wednesday: WEEKDAY,
  thursday: WEEKDAY,
  friday: WEEKDAY,
  saturday: CLOSED,
  sunday: CLOSED,
};

function schedule(overrides: Partial<Schedule> = {}): Schedule {
  return { timezone: 'UTC', commonDailyConfig: false, commonSlots: [], dailyConfig: WEEKDAYS_ONLY, holidays: [], ...overrides };
}

const minutes = (hours: Schedule, from: string, to: string) => businessMinutesBetween(hours, new Date(from), new Date(to));

// 2026-01-15 is a Thursday.
describe('businessMinutesBetween', () => {
  it('counts the open minutes of one day', () => {
    expect(minutes(schedule(), '2026-01-15T10:00:00Z', '2026-01-15T12:00:00Z')).toBe(120);
    expect(minutes(schedule(), '2026-01-15T07:00:00Z', '2026-01-15T09:30:00Z')).toBe(30);
  });

  it('skips nights and weekends', () => {
    expect(minutes(schedule(), '2026-01-15T16:00:00Z', '2026-01-16T10:00:00Z')).toBe(120);
    expect(minutes(schedule(), '2026-01-16T16:00:00Z', '2026-01-19T10:00:00Z')).toBe(120);
    expect(minutes(schedule(), '2026-01-17T10:00:00Z', '2026-01-18T10:00:00Z')).toBe(0);
  });

  it('skips holidays, yearly or dated', () => {
    const friday = schedule({ holidays: ['16-01-2026'] });
    expect(minutes(friday, '2026-01-15T16:00:00Z', '2026-01-19T10:00:00Z')).toBe(120);
    expect(minutes(schedule({ holidays: ['16-01'] }), '2026-01-16T09:00:00Z', '2026-01-16T17:00:00Z')).toBe(0);
  });

  it("reads the hours in the schedule's time zone", () => {
    // 09:00-17:00 in New York is 14:00-22:00 UTC in January.
    const newYork = schedule({ timezone: 'America/New_York' });
    expect(minutes(newYork, '2026-01-15T13:00:00Z', '2026-01-15T15:00:00Z')).toBe(60);
    expect(minutes(newYork, '2026-01-15T21:30:00Z', '2026-01-16T14:30:00Z')).toBe(60);
  });

  it('counts real minutes across a change of the clocks', () => {
    // Paris moves from UTC+1 to UTC+2 on 2026-03-29: always open, a day of real time is 1440 minutes.
    const always = schedule({
      timezone: 'Europe/Paris',
      commonDailyConfig: true,
      commonSlots: [{ start: '00:00', end: '24:00' }],
    });
    expect(minutes(always, '2026-03-28T12:00:00Z', '2026-03-29T12:00:00Z')).toBe(1440);
  });

  it('answers 0 for an empty or reversed span, and whole minutes only', () => {
    expect(minutes(schedule(), '2026-01-15T12:00:00Z', '2026-01-15T10:00:00Z')).toBe(0);
    expect(minutes(schedule(), '2026-01-15T12:00:00Z', '2026-01-15T12:00:00Z')).toBe(0);
    expect(minutes(schedule(), '2026-01-15T10:00:30Z', '2026-01-15T10:02:00Z')).toBe(1);
  });
});
