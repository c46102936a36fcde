import { describe, expect, it } from 'vitest';
import { messageForForm, slotsToApi, slotsToForm, type Week, weekToApi, weekToForm } from './business-hours-form';
import { holidayLabel, holidayOf } from './holidays';
import { describeHoursStatus } from './hours-status';

const closed = { isActive: false, slots: [] };
const nineToFive = { isActive: true, slots: [{ start: '09:00', end: '17:00' }] };
const week = (overrides: Partial<Week>): Week => ({
  monday: nineToFive,
  tuesday: nineToFive,
  wednesday: nineToFive,
  thursday: nineToFive,
  friday: nineToFive,
  saturday: closed,
  sunday: closed,
  ...overrides,
});

describe('business hours between the form and the API', () => {
  it('splits an overnight slot at midnight into the next day, opening that day for it', () => {
    const typed = week({
      friday: {
        isActive: true,
        slots: [
          { start: '09:00', end: '17:00' },
          { start: '22:00', end: '02:00' },
        ],
      },
    });
    const { dailyConfig, origins } = weekToApi(typed);
    expect(dailyConfig.friday.slots).toEqual([
      { start: '09:00', end: '17:00' },
      { start: '22:00', end: '24:00' },
    ]);
    expect(dailyConfig.saturday).toEqual({ isActive: true, slots: [{ start: '00:00', end: '02:00' }] });
    expect(origins['dailyConfig.saturday.slots.0']).toBe('dailyConfig.friday.slots.1');
    expect(weekToForm(dailyConfig)).toEqual(typed);
  });

  it('joins a Sunday night into Monday morning, and keeps round-the-clock days apart', () => {
    const typed = week({ sunday: { isActive: true, slots: [{ start: '20:00', end: '01:30' }] } });
    const sent = weekToApi(typed).dailyConfig;
    expect(sent.monday.slots).toEqual([
      { start: '09:00', end: '17:00' },
      { start: '00:00', end: '01:30' },
    ]);
    expect(weekToForm(sent)).toEqual(typed);
    const allDay = { isActive: true, slots: [{ start: '00:00', end: '24:00' }] };
    const always = {
      monday: allDay,
      tuesday: allDay,
      wednesday: allDay,
      thursday: allDay,
      friday: allDay,
      saturday: allDay,
      sunday: allDay,
    };
    expect(weekToForm(always).monday.slots).toEqual([{ start: '00:00', end: '00:00' }]);
    expect(weekToApi(weekToForm(always)).dailyConfig).toEqual(always);
  });

  it('does the same for the common slots of every day', () => {
    const sent = slotsToApi([{ start: '22:00', end: '06:00' }]);
    expect(sent.slots).toEqual([
      { start: '22:00', end: '24:00' },
      { start: '00:00', end: '06:00' },
    ]);
    expect(sent.origins).toEqual({ 'commonSlots.0': 'commonSlots.0', 'commonSlots.1': 'commonSlots.0' });
    expect(slotsToForm(sent.slots)).toEqual([{ start: '22:00', end: '06:00' }]);
  });

  it("names the form's slot in the API's message", () => {
    const { origins } = weekToApi(week({ friday: { isActive: true, slots: [{ start: '22:00', end: '02:00' }] } }));
    expect(messageForForm('dailyConfig.saturday.slots[0] must start before it ends', origins)).toBe(
      'dailyConfig.friday.slots.0 must start before it ends',
    );
    expect(messageForForm('holidays[1] 31-02 is not a real date', origins)).toBe('holidays.1 31-02 is not a real date');
  });
});

describe('holidays', () => {
  it('writes DD-MM for every year, else DD-MM-YYYY, and reads them back in words', () => {
    expect(holidayOf('2027-12-25', true)).toBe('25-12');
    expect(holidayOf('2027-05-01', false)).toBe('01-05-2027');
    expect(holidayLabel('25-12')).toBe('25 December, every year');
    expect(holidayLabel('01-05-2027')).toBe('1 May 2027');
  });
});

describe('the open-or-closed line', () => {
  const status = { timezone: 'Europe/Paris', at: '2027-01-04T09:00:00.000Z', nextOpeningAt: null, nextClosingAt: null };
  it("reads the next closing or opening in the team's zone", () => {
    expect(describeHoursStatus({ ...status, isOpen: true, nextClosingAt: '2027-01-04T16:00:00.000Z' })).toBe(
      'Open now, closes at 17:00',
    );
    expect(describeHoursStatus({ ...status, isOpen: false, nextOpeningAt: '2027-01-05T08:00:00.000Z' })).toBe(
      'Closed, opens Tuesday 09:00',
    );
    expect(describeHoursStatus({ ...status, isOpen: false, nextOpeningAt: '2027-01-18T08:00:00.000Z' })).toBe(
      'Closed, opens Monday 18 January 09:00',
    );
  });
});
