import type { ChartRow, ChartSeries } from './report-catalog';

/** The chart's numbers as a table: for screen readers under the chart, or on screen. */
export function ReportTable({
  caption,
  rows,
  series,
  className = '',
}: {
  caption: string;
  rows: readonly ChartRow[];
  series: readonly ChartSeries[];
  className?: string;
}) {
  return (
    <table className={className}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Period starting</th>
          {series.map((one) => (
            <th key={one.key} scope="col">
              {one.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.start}>
            <th scope="row">{row.start}</th>
            {series.map((one) => (
              <td key={one.key}>{row.values[one.key] ?? 'none'}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
