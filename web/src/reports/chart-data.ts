import type { ChartRow, ChartSeries } from './report-catalog';
import { startOfDay } from './report-range';

/** The chart's height in pixels, and its placeholder's while uPlot loads. */
export const CHART_HEIGHT = 280;

/** uPlot's columns: the x values (seconds), then one column per series, nulls where nothing was measured. */
export type ChartColumns = [number[], ...(number | null)[][]];

/**
 * Buckets as uPlot reads them: x is each bucket's first day at local midnight, in seconds, so the
 * axis (drawn in the browser's time zone) labels the day the API named.
 */
export function chartColumns(rows: readonly ChartRow[], series: readonly ChartSeries[]): ChartColumns {
  const xs = rows.map((row) => startOfDay(row.start).getTime() / 1000);
  return [xs, ...series.map((one) => rows.map((row) => row.values[one.key] ?? null))];
}

/** Whether there is nothing to draw: every value is zero or missing. */
export function isEmptyChart(rows: readonly ChartRow[], series: readonly ChartSeries[]): boolean {
  return rows.every((row) => series.every((one) => !row.values[one.key]));
}

/** A series' colour in each theme: Tailwind's 600 on white, 400 on zinc-950, told apart by hue. */
export const SERIES_COLORS = [
  { light: '#2563eb', dark: '#60a5fa' },
  { light: '#059669', dark: '#34d399' },
  { light: '#d97706', dark: '#fbbf24' },
  { light: '#9333ea', dark: '#c084fc' },
  { light: '#e11d48', dark: '#fb7185' },
  { light: '#0891b2', dark: '#22d3ee' },
] as const;

export function seriesColor(index: number, dark: boolean): string {
  const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
  return dark ? color.dark : color.light;
}
