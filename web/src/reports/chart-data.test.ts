import { describe, expect, it } from 'vitest';
import { chartColumns, isEmptyChart, seriesColor } from './chart-data';

const series = [
  { key: 'created', label: 'Created' },
  { key: 'median', label: 'Median' },
];

describe('chartColumns', () => {
  it('puts each bucket at its local midnight in seconds, and a column per series in order', () => {
    const rows = [
      { start: '2026-01-12', values: { created: 3, median: 42 } },
      { start: '2026-01-19', values: { created: 0, median: null } },
    ];
    expect(chartColumns(rows, series)).toEqual([
      [new Date(2026, 0, 12).getTime() / 1000, new Date(2026, 0, 19).getTime() / 1000],
      [3, 0],
      [42, null],
    ]);
  });

  it('reads a value the row lacks as null, and no rows as empty columns', () => {
    expect(chartColumns([{ start: '2026-03-01', values: { created: 1 } }], series)[2]).toEqual([null]);
    expect(chartColumns([], series)).toEqual([[], [], []]);
  });
});

describe('isEmptyChart', () => {
  it('is empty when every value is zero or null, and not when one is a number', () => {
    expect(isEmptyChart([{ start: '2026-01-01', values: { created: 0, median: null } }], series)).toBe(true);
    expect(isEmptyChart([], series)).toBe(true);
    expect(isEmptyChart([{ start: '2026-01-01', values: { created: 0, median: 5 } }], series)).toBe(false);
  });
});

describe('seriesColor', () => {
  it('differs per theme and wraps past the palette', () => {
    expect(seriesColor(0, false)).not.toBe(seriesColor(0, true));
    expect(seriesColor(6, false)).toBe(seriesColor(0, false));
  });
});
