import { lazy, Suspense, useId, useMemo } from 'react';
import { CHART_HEIGHT, chartColumns, seriesColor } from './chart-data';
import { ReportTable } from './ReportTable';
import type { ChartRow, ChartSeries } from './report-catalog';
import { useDarkScheme } from './use-dark-scheme';

// uPlot (about 50 kB) and its CSS load with the first chart drawn, not with the console.
const UplotChart = lazy(async () => ({ default: (await import('./UplotChart')).UplotChart }));

/**
 * A report's chart: the canvas is named for screen readers, which cannot read it, and the same
 * numbers follow in a table only they see.
 */
export function ReportChart({
  title,
  rows,
  series,
}: {
  title: string;
  rows: readonly ChartRow[];
  series: readonly ChartSeries[];
}) {
  const captionId = useId();
  const columns = useMemo(() => chartColumns(rows, series), [rows, series]);
  const dark = useDarkScheme();
  return (
    <figure aria-labelledby={captionId} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <figcaption id={captionId} className="mb-2 text-sm font-medium">
        {title}
      </figcaption>
      <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400" aria-hidden>
        {series.map((one, index) => (
          <li key={one.key} className="flex items-center gap-1.5">
            <span className="inline-block h-0.5 w-4" style={{ backgroundColor: seriesColor(index, dark) }} />
            {one.label}
          </li>
        ))}
      </ul>
      <div
        role="img"
        aria-label={`Chart of ${title}: ${series.map((one) => one.label).join(', ')}. The numbers follow in a table.`}
      >
        <Suspense
          fallback={
            <div
              style={{ height: CHART_HEIGHT }}
              className="flex items-center justify-center text-sm text-zinc-500 dark:text-zinc-400"
            >
              Loading chart…
            </div>
          }
        >
          <UplotChart columns={columns} series={series} />
        </Suspense>
      </div>
      <ReportTable caption={title} rows={rows} series={series} className="sr-only" />
    </figure>
  );
}
