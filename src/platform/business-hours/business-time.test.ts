import { describe, expect, it } from 'vitest';
import { weekdaySchedule } from '../../../test/schedules.js';
import { addBusinessMinutes, businessMinutesBetween } from './business-time.js';
import type { Schedule } from './hours.js';

const schedule = weekdaySchedule;

/** Adds, then checks that the minutes between the two instants give the same count back. */
function due(hours: Schedule | null, from: string, minutes: number): string {
  const at = addBusinessMinutes(hours, new Date(from), minutes);
  expect(businessMinutesBetween(hours, new Date(from), at)).toBe(minutes);
  return at.toISOString();
}

describe('addBusinessMinutes and businessMinutesBetween', () => {
  it('counts calendar time without a schedule', () => {
    expect(due(null, '2026-01-17T16:00:00.000Z', 90)).toBe('2026-01-17T17:30:00.000Z');
  });

  it('skips the night, and starts counting at the opening when closed', () => {
    expect(due(schedule(), '2026-01-13T16:30:00.000Z', 60)).toBe('2026-01-14T09:30:00.000Z');
    expect(due(schedule(), '2026-01-13T06:00:00.000Z', 60)).toBe('2026-01-13T10:00:00.000Z');
    expect(due(schedule(), '2026-01-13T09:00:00.000Z', 480)).toBe('2026-01-13T17:00:00.000Z');
  });

  it('skips the weekend', () => {
    expect(due(schedule(), '2026-01-16T16:00:00.000Z', 120)).toBe('2026-01-19T10:00:00.000Z');
    expect(due(schedule(), '2026-01-17T12:00:00.000Z', 30)).toBe('2026-01-19T09:30:00.000Z');
  });

  it('skips holidays, yearly and dated', () => {
    const hours = schedule({ holidays: ['25-12', '28-12-2026'] });
    expect(due(hours, '2026-12-24T16:00:00.000Z', 120)).toBe('2026-12-29T10:00:00.000Z');
  });

  it('follows the spring and autumn changes in Europe/Berlin', () => {
    const berlin = schedule({ timezone: 'Europe/Berlin' });
    // Friday 16:00 CET; Monday 30 March opens at 09:00 CEST (07:00Z).
    expect(due(berlin, '2026-03-27T15:00:00.000Z', 120)).toBe('2026-03-30T08:00:00.000Z');
    // Friday 16:00 CEST; Monday 26 October opens at 09:00 CET (08:00Z).
    expect(due(berlin, '2026-10-23T14:00:00.000Z', 120)).toBe('2026-10-26T09:00:00.000Z');
  });

  it('follows the spring and autumn changes in America/New_York', () => {
    const newYork = schedule({ timezone: 'America/New_York' });
    expect(due(newYork, '2026-03-06T21:00:00.000Z', 120)).toBe('2026-03-09T14:00:00.000Z');
    expect(due(newYork, '2026-10-30T20:00:00.000Z', 120)).toBe('2026-11-02T15:00:00.000Z');
  });

  it('counts real minutes on a day of 23 or 25 hours', () => {
    const sundays = (timezone: string) =>
      schedule({
        timezone,
        dailyConfig: { sunday: { isActive: true, slots: [{ start: '00:00', end: '24:00' }] } },
      });
    // Sunday 25 October in Berlin lasts 25 hours, Sunday 29 March 23.
    expect(
      businessMinutesBetween(sundays('Europe/Berlin'), new Date('2026-10-23T00:00:00Z'), new Date('2026-10-28T00:00:00Z')),
    ).toBe(1500);
    expect(
      businessMinutesBetween(sundays('Europe/Berlin'), new Date('2026-03-27T00:00:00Z'), new Date('2026-04-01T00:00:00Z')),
    ).toBe(1380);
    expect(due(sundays('America/New_York'), '2026-11-01T04:00:00.000Z', 1500)).toBe('2026-11-02T05:00:00.000Z');
  });

  it('joins slots that cross midnight', () => {
    const nights = schedule({
      commonDailyConfig: true,
      commonSlots: [
        { start: '00:00', end: '02:00' },
        { start: '22:00', end: '24:00' },
      ],
    });
    expect(due(nights, '2026-01-13T23:00:00.000Z', 120)).toBe('2026-01-14T01:00:00.000Z');
    expect(due(nights, '2026-01-14T01:30:00.000Z', 60)).toBe('2026-01-14T22:30:00.000Z');
  });

  it('is calendar time for a schedule that never opens, and open all the time for 24/7', () => {
    const never = schedule({ dailyConfig: {} });
    expect(due(never, '2026-01-13T10:00:00.000Z', 60)).toBe('2026-01-13T11:00:00.000Z');
    const always = schedule({ commonDailyConfig: true, commonSlots: [{ start: '00:00', end: '24:00' }] });
    expect(due(always, '2026-01-13T10:00:00.000Z', 60 * 24 * 400)).toBe('2027-02-17T10:00:00.000Z');
  });

  it('gives zero for a reversed range', () => {
    expect(businessMinutesBetween(schedule(), new Date('2026-01-14T10:00:00Z'), new Date('2026-01-13T10:00:00Z'))).toBe(0);
  });
});
