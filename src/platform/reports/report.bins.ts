/**
 * The bins of the duration histograms: exact minutes 0..59, then lower bounds each about 5% above
 * the previous one (at least a minute), up to two years of minutes; a longer duration falls in the
 * last bin. A percentile is reported as the lower bound of the bin that holds it, so it is exact
 * under an hour and within ~5% above. Pure; the bounds are a fixed list, so a stored bin number
 * keeps its meaning (never change them: add bins only at the end).
 */
const EXACT_MINUTES = 60;
const GROWTH = 1.05;
const LAST_BOUND = 2 * 366 * 24 * 60;

function bounds(): number[] {
  const list = Array.from({ length: EXACT_MINUTES }, (_, minute) => minute);
  let bound = EXACT_MINUTES;
  while (bound <= LAST_BOUND) {
    list.push(bound);
    bound = Math.max(bound + 1, Math.ceil(bound * GROWTH));
  }
  return list;
}

export const BIN_LOWER_BOUNDS: readonly number[] = bounds();

/** The bin of a duration in whole minutes (negative durations, from a clock set back, are 0). */
export function binOf(minutes: number): number {
  const value = Math.max(0, Math.floor(minutes));
  let low = 0;
  let high = BIN_LOWER_BOUNDS.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((BIN_LOWER_BOUNDS[middle] ?? 0) <= value) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

/**
 * The nearest-rank percentile (`share` 0.5 for the median, 0.9 for p90) of the counted bins: the
 * lower bound of the bin holding the ceil(share × n)-th smallest value; null with no values. Of
 * two values the median is the smaller.
 */
export function percentileOfBins(bins: ReadonlyMap<number, number>, share: number): number | null {
  const total = [...bins.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) {
    return null;
  }
  const rank = Math.max(1, Math.ceil(share * total));
  let seen = 0;
  for (const bin of [...bins.keys()].sort((a, b) => a - b)) {
    seen += bins.get(bin) ?? 0;
    if (seen >= rank) {
      return BIN_LOWER_BOUNDS[bin] ?? null;
    }
  }
  return null;
}
