import { describe, expect, it } from 'vitest';
import { BIN_LOWER_BOUNDS, binOf, percentileOfBins } from './report.bins.js';

describe('report bins', () => {
  it('keeps minutes under an hour exact', () => {
    for (const minute of [0, 1, 30, 59]) {
      expect(BIN_LOWER_BOUNDS[binOf(minute)]).toBe(minute);
    }
    expect(binOf(-5)).toBe(0);
  });

  it('puts every longer duration within 5% above its bin lower bound', () => {
    for (const minute of [60, 61, 75, 480, 1441, 10_000, 100_000, 1_000_000]) {
      const lower = BIN_LOWER_BOUNDS[binOf(minute)] ?? 0;
      expect(lower).toBeLessThanOrEqual(minute);
      expect(minute / lower).toBeLessThan(1.051);
    }
  });

  it('answers nearest-rank percentiles from counts', () => {
    const bins = new Map([
      [binOf(10), 1],
      [binOf(20), 2],
      [binOf(40), 1],
    ]);
    expect(percentileOfBins(bins, 0.5)).toBe(20);
    expect(percentileOfBins(bins, 0.9)).toBe(40);
    expect(
      percentileOfBins(
        new Map([
          [binOf(10), 1],
          [binOf(20), 1],
        ]),
        0.5,
      ),
    ).toBe(10);
    expect(percentileOfBins(new Map(), 0.5)).toBeNull();
  });
});
