import { describe, expect, it } from 'vitest';
import { NINE_TO_FIVE, WEEKDAY, WEEKDAYS_ONLY, weekdaySchedule } from '../../../test/schedules.js';
import { AppError } from '../../lib/errors.js';
import { businessHoursStatus, type HoursInput, isWithinHours, type Schedule, validateHours } from './hours.js';
import type { DailyConfig, Slot } from './hours.schemas.js';

const TEST_AT = '2026-01-15T09:00:00.000Z';
const schedule = weekdaySchedule;

function status(hours: Schedule, at: string) {
  const result = businessHoursStatus(hours, new Date(at));
  expect(isWithinHours(hours, new Date(at)), `isWithinHours at ${at}`).toBe(result.isOpen);
  return result;
}

/** The message of the AppError `validateHours` throws, or undefined when it accepts the input. */
function rejection(input: HoursInput): string | undefined {
  try {
    validateHours(input);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION');
    return (error as AppError).message;
  }
}

describe('validateHours', () => {
  it('accepts a full, valid set of hours and leaves out what was not sent', () => {
    expect(
      rejection({
        timezone: 'America/New_York',
        commonSlots: [
          { start: '00:00', end: '02:00' },
          { start: '21:00', end: '24:00' },
        ],
        dailyConfig: WEEKDAYS_ONLY,
        holidays: ['25-12', '01-05-2026'],
      }),
    ).toBeUndefined();
    expect(rejection({})).toBeUndefined();
    expect(rejection({ timezone: null })).toBeUndefined();
  });

  it('rejects a time zone that is not IANA', () => {
    expect(rejection({ timezone: 'Mars/Olympus_Mons' })).toBe('timezone must be a valid IANA time zone');
    expect(rejection({ timezone: '' })).toBe('timezone must be a valid IANA time zone');
  });

  it('reports the bad field as a body issue with its path', () => {
    try {
      validateHours({
        dailyConfig: { friday: { isActive: true, slots: [NINE_TO_FIVE[0] as Slot, { start: '16:00', end: '18:00' }] } },
      });
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).issues).toEqual([
        {
          location: 'body',
          path: ['dailyConfig', 'friday', 'slots', 1],
          rule: 'slotOverlap',
          message: 'overlaps dailyConfig.friday.slots[0]',
        },
      ]);
    }
  });

  it('rejects overlapping slots of a day, in any order, and accepts slots that only touch', () => {
    const monday = (slots: Slot[]) => ({ dailyConfig: { monday: { isActive: true, slots } } });
    expect(
      rejection(
        monday([
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ]),
      ),
    ).toBe('dailyConfig.monday.slots[1] overlaps dailyConfig.monday.slots[0]');
    expect(
      rejection(
        monday([
          { start: '13:00', end: '15:00' },
          { start: '18:00', end: '19:00' },
          { start: '09:00', end: '14:00' },
        ]),
      ),
    ).toBe('dailyConfig.monday.slots[2] overlaps dailyConfig.monday.slots[0]');
    expect(
      rejection({
        commonSlots: [
          { start: '09:00', end: '17:00' },
          { start: '09:00', end: '17:00' },
        ],
      }),
    ).toBe('commonSlots[1] overlaps commonSlots[0]');
    expect(
      rejection(
        monday([
          { start: '12:00', end: '13:00' },
          { start: '09:00', end: '12:00' },
        ]),
      ),
    ).toBeUndefined();
  });

  it('checks slots of inactive days too', () => {
    expect(rejection({ dailyConfig: { sunday: { isActive: false, slots: [{ start: '10:00', end: '10:00' }] } } })).toBe(
      'dailyConfig.sunday.slots[0] must start before it ends (10:00 is not before 10:00)',
    );
  });

  it('wants HH:MM times with start before end; 24:00 only as an end', () => {
    expect(rejection({ commonSlots: [{ start: '17:00', end: '09:00' }] })).toBe(
      'commonSlots[0] must start before it ends (17:00 is not before 09:00)',
    );
    expect(rejection({ commonSlots: [{ start: '24:00', end: '24:00' }] })).toBe(
      'commonSlots[0].start must be a time HH:MM from 00:00 to 23:59',
    );
    expect(rejection({ commonSlots: [{ start: '9:00', end: '17:00' }] })).toBe(
      'commonSlots[0].start must be a time HH:MM from 00:00 to 23:59',
    );
    expect(rejection({ commonSlots: [{ start: '09:00', end: '24:30' }] })).toBe(
      'commonSlots[0].end must be a time HH:MM from 00:00 to 24:00',
    );
    expect(rejection({ commonSlots: [{ start: '21:00', end: '24:00' }] })).toBeUndefined();
  });

  it('rejects a key that is not a day of the week', () => {
    expect(rejection({ dailyConfig: { funday: WEEKDAY } as DailyConfig })).toBe('dailyConfig.funday is not a day of the week');
  });

  it('accepts real holiday dates, yearly 29-02 and 29-02 of a leap year', () => {
    expect(rejection({ holidays: ['01-01', '29-02', '29-02-2028', '31-12-2026'] })).toBeUndefined();
  });

  it('rejects impossible holiday dates and other forms, naming the entry', () => {
    expect(rejection({ holidays: ['31-02'] })).toBe('holidays[0] 31-02 is not a real date');
    expect(rejection({ holidays: ['25-12', '29-02-2025'] })).toBe('holidays[1] 29-02-2025 is not a real date');
    expect(rejection({ holidays: ['00-01'] })).toBe('holidays[0] 00-01 is not a real date');
    expect(rejection({ holidays: ['01-13'] })).toBe('holidays[0] 01-13 is not a real date');
    expect(rejection({ holidays: ['2026-12-25'] })).toBe(
      'holidays[0] 2026-12-25 must be a date DD-MM (every year) or DD-MM-YYYY',
    );
  });
});

describe('businessHoursStatus across daylight-saving changes in America/New_York', () => {
  const newYork = schedule({ timezone: 'America/New_York' });

  it('opens at 13:00Z before and at 14:00Z after the November change', () => {
    // Friday 30 October 2026, 16:00 EDT; clocks go back on Sunday 1 November.
    expect(status(newYork, '2026-10-30T20:00:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-11-02T14:00:00.000Z',
      nextClosingAt: '2026-10-30T21:00:00.000Z',
    });
    expect(status(newYork, '2026-10-30T13:00:00.000Z').isOpen).toBe(true);
    expect(status(newYork, '2026-10-30T12:59:59.999Z').isOpen).toBe(false);
    expect(status(newYork, '2026-11-02T13:30:00.000Z')).toEqual({
      isOpen: false,
      nextOpeningAt: '2026-11-02T14:00:00.000Z',
      nextClosingAt: '2026-11-02T22:00:00.000Z',
    });
  });

  it('opens at 14:00Z before and at 13:00Z after the March change', () => {
    // Friday 6 March 2026, 09:30 EST; clocks go forward on Sunday 8 March.
    expect(status(newYork, '2026-03-06T13:30:00.000Z').isOpen).toBe(false);
    expect(status(newYork, '2026-03-06T14:30:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-03-09T13:00:00.000Z',
      nextClosingAt: '2026-03-06T22:00:00.000Z',
    });
    expect(status(newYork, '2026-03-09T13:30:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-03-10T13:00:00.000Z',
      nextClosingAt: '2026-03-09T21:00:00.000Z',
    });
  });

  it('reads a wall time skipped by spring-forward as shifted by the gap, without failing', () => {
    const sunday = schedule({
      timezone: 'America/New_York',
      dailyConfig: { sunday: { isActive: true, slots: [{ start: '02:30', end: '04:00' }] } },
    });
    // 02:30 does not exist on 8 March 2026; it reads as 03:30 EDT (07:30Z).
    expect(status(sunday, '2026-03-08T07:00:00.000Z')).toEqual({
      isOpen: false,
      nextOpeningAt: '2026-03-08T07:30:00.000Z',
      nextClosingAt: '2026-03-08T08:00:00.000Z',
    });
    const inTheGap = schedule({
      timezone: 'America/New_York',
      dailyConfig: { sunday: { isActive: true, slots: [{ start: '02:00', end: '02:30' }] } },
    });
    expect(() => businessHoursStatus(inTheGap, new Date('2026-03-08T06:00:00.000Z'))).not.toThrow();
  });

  it('opens at the first of the two 01:00s when clocks go back', () => {
    const sunday = schedule({
      timezone: 'America/New_York',
      dailyConfig: { sunday: { isActive: true, slots: [{ start: '01:00', end: '03:00' }] } },
    });
    // 01:00 EDT is 05:00Z; 03:00 EST is 08:00Z: three hours open that night.
    expect(status(sunday, '2026-11-01T04:59:00.000Z')).toMatchObject({
      isOpen: false,
      nextOpeningAt: '2026-11-01T05:00:00.000Z',
    });
    expect(status(sunday, '2026-11-01T06:30:00.000Z')).toMatchObject({ isOpen: true, nextClosingAt: '2026-11-01T08:00:00.000Z' });
  });
});

describe('businessHoursStatus with holidays in Asia/Tokyo (UTC+9)', () => {
  const allDay = { commonDailyConfig: true, commonSlots: [{ start: '00:00', end: '24:00' }] };

  it('closes 1 January, a yearly holiday, for the whole local day, which starts at 15:00Z the day before', () => {
    const tokyo = schedule({ timezone: 'Asia/Tokyo', ...allDay, holidays: ['01-01'] });
    expect(status(tokyo, '2025-12-31T14:59:59.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-01-01T15:00:00.000Z',
      nextClosingAt: '2025-12-31T15:00:00.000Z',
    });
    // Still 31 December in UTC, already the holiday in Tokyo.
    expect(status(tokyo, '2025-12-31T23:59:00.000Z')).toEqual({
      isOpen: false,
      nextOpeningAt: '2026-01-01T15:00:00.000Z',
      nextClosingAt: '2026-12-31T15:00:00.000Z',
    });
    expect(status(tokyo, '2026-01-01T15:00:00.000Z').isOpen).toBe(true);
  });

  it('repeats a DD-MM holiday every year, including 29-02 in leap years only', () => {
    const tokyo = schedule({ timezone: 'Asia/Tokyo', ...allDay, holidays: ['01-01', '29-02'] });
    expect(status(tokyo, '2027-01-01T03:00:00.000Z').isOpen).toBe(false);
    expect(status(tokyo, '2030-01-01T03:00:00.000Z').isOpen).toBe(false);
    expect(status(tokyo, '2028-02-29T03:00:00.000Z').isOpen).toBe(false);
    expect(status(tokyo, '2027-03-01T03:00:00.000Z').isOpen).toBe(true);
  });

  it('closes a DD-MM-YYYY holiday in that year only', () => {
    const tokyo = schedule({ timezone: 'Asia/Tokyo', holidays: ['05-01-2026'] });
    // Monday 5 January 2026, 10:00 in Tokyo; next opening Tuesday 09:00 JST.
    expect(status(tokyo, '2026-01-05T01:00:00.000Z')).toEqual({
      isOpen: false,
      nextOpeningAt: '2026-01-06T00:00:00.000Z',
      nextClosingAt: '2026-01-06T08:00:00.000Z',
    });
    // Sunday 4 January, 23:59 UTC is already the holiday in Tokyo.
    expect(status(tokyo, '2026-01-04T23:59:00.000Z').nextOpeningAt).toBe('2026-01-06T00:00:00.000Z');
    // Tuesday 5 January 2027 is an ordinary day.
    expect(status(tokyo, '2027-01-05T01:00:00.000Z').isOpen).toBe(true);
  });
});

describe('businessHoursStatus: days and slots', () => {
  it('applies commonSlots to every day when commonDailyConfig is on, whatever dailyConfig says', () => {
    const common = schedule({ commonDailyConfig: true, commonSlots: [{ start: '10:00', end: '12:00' }] });
    // Saturday 17 January 2026 is inactive in dailyConfig.
    expect(status(common, '2026-01-17T11:00:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-01-18T10:00:00.000Z',
      nextClosingAt: '2026-01-17T12:00:00.000Z',
    });
    // Thursday 15 January at 09:30: the common slot, not 09:00-17:00, applies.
    expect(status(common, '2026-01-15T09:30:00.000Z').isOpen).toBe(false);
  });

  it('keeps inactive days closed even with slots, and active days without slots closed too', () => {
    const hours = schedule({
      dailyConfig: { ...WEEKDAYS_ONLY, friday: { isActive: false, slots: NINE_TO_FIVE }, monday: { isActive: true, slots: [] } },
    });
    // Thursday 15 January 2026, 18:00: Friday is inactive, weekend closed, Monday has no slots.
    expect(status(hours, '2026-01-15T18:00:00.000Z')).toEqual({
      isOpen: false,
      nextOpeningAt: '2026-01-20T09:00:00.000Z',
      nextClosingAt: '2026-01-20T17:00:00.000Z',
    });
    expect(status(hours, '2026-01-16T12:00:00.000Z').isOpen).toBe(false);
  });

  it('reads 21:00-24:00 and the next day 00:00-02:00 as one overnight period', () => {
    const overnight = schedule({
      timezone: 'Europe/Paris',
      dailyConfig: {
        friday: { isActive: true, slots: [{ start: '21:00', end: '24:00' }] },
        saturday: { isActive: true, slots: [{ start: '00:00', end: '02:00' }] },
      },
    });
    // Friday 16 January 2026, 22:00 in Paris (UTC+1).
    expect(status(overnight, '2026-01-16T21:00:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-01-23T20:00:00.000Z',
      nextClosingAt: '2026-01-17T01:00:00.000Z',
    });
    expect(status(overnight, '2026-01-16T23:00:00.000Z').isOpen).toBe(true);
    expect(status(overnight, '2026-01-17T01:00:00.000Z').isOpen).toBe(false);
  });

  it('joins an overnight period where local midnight does not exist (America/Santiago, 6 September 2026)', () => {
    const overnight = schedule({
      timezone: 'America/Santiago',
      dailyConfig: {
        saturday: { isActive: true, slots: [{ start: '21:00', end: '24:00' }] },
        sunday: { isActive: true, slots: [{ start: '00:00', end: '02:00' }] },
      },
    });
    // Saturday 23:30 at UTC-4; clocks jump from 00:00 to 01:00 (UTC-3), so it closes at 02:00 UTC-3.
    expect(status(overnight, '2026-09-06T03:30:00.000Z')).toEqual({
      isOpen: true,
      nextOpeningAt: '2026-09-13T00:00:00.000Z',
      nextClosingAt: '2026-09-06T05:00:00.000Z',
    });
  });

  it('answers null when it never opens, or never closes, within a year', () => {
    expect(status(schedule({ dailyConfig: {} }), TEST_AT)).toEqual({ isOpen: false, nextOpeningAt: null, nextClosingAt: null });
    const always = schedule({ commonDailyConfig: true, commonSlots: [{ start: '00:00', end: '24:00' }] });
    expect(status(always, TEST_AT)).toEqual({ isOpen: true, nextOpeningAt: null, nextClosingAt: null });
  });
});
