import { describe, expect, it } from 'vitest';
import { dayOf, isDay, presetRange, startOfDay } from './report-range';
import { parseReportSearch, rangeOf } from './report-search';

const today = new Date(2026, 2, 5, 15, 30); // 5 March 2026, afternoon, local time

describe('presetRange', () => {
  it('ends today and counts today among its days', () => {
    expect(presetRange('7d', today)).toEqual({ from: '2026-02-27', to: '2026-03-05' });
    expect(presetRange('30d', today)).toEqual({ from: '2026-02-04', to: '2026-03-05' });
    expect(presetRange('90d', today)).toEqual({ from: '2025-12-06', to: '2026-03-05' });
  });

  it('crosses a year end', () => {
    expect(presetRange('7d', new Date(2026, 0, 2))).toEqual({ from: '2025-12-27', to: '2026-01-02' });
  });
});

describe('days', () => {
  it('formats the local day, not the UTC one', () => {
    expect(dayOf(new Date(2026, 0, 1, 0, 5))).toBe('2026-01-01');
    expect(dayOf(new Date(2026, 0, 1, 23, 55))).toBe('2026-01-01');
  });

  it('accepts real calendar days only', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-1-01')).toBe(false);
    expect(isDay('yesterday')).toBe(false);
  });

  it('starts a day at local midnight', () => {
    expect(startOfDay('2026-03-05').getTime()).toBe(new Date(2026, 2, 5).getTime());
  });
});

describe('the URL of the reports page', () => {
  it('keeps what makes sense and drops the rest', () => {
    expect(parseReportSearch({ report: 'volume', range: '7d', team: 'T1', interval: 'week' })).toEqual({
      report: 'volume',
      range: '7d',
      team: 'T1',
      interval: 'week',
    });
    expect(parseReportSearch({ range: '12d', interval: 'year', report: 42 })).toEqual({});
  });

  it('reads from and to only for a custom range, and only real days', () => {
    expect(parseReportSearch({ range: '7d', from: '2026-01-01', to: '2026-01-31' })).toEqual({ range: '7d' });
    expect(parseReportSearch({ range: 'custom', from: '2026-01-01', to: '2026-02-30' })).toEqual({
      range: 'custom',
      from: '2026-01-01',
    });
  });

  it('asks for the last 30 days by default, a custom range as given, a missing end from the default', () => {
    expect(rangeOf({}, today)).toEqual({ from: '2026-02-04', to: '2026-03-05' });
    expect(rangeOf({ range: 'custom', from: '2026-01-01', to: '2026-01-31' }, today)).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(rangeOf({ range: 'custom', from: '2026-01-01' }, today)).toEqual({ from: '2026-01-01', to: '2026-03-05' });
  });
});
