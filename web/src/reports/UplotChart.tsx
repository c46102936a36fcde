import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_HEIGHT, type ChartColumns, seriesColor } from './chart-data';
import type { ChartSeries } from './report-catalog';
import { dayOf } from './report-range';
import { useDarkScheme } from './use-dark-scheme';

/** The axes' text and the grid in each theme: zinc-600 / zinc-400 text, zinc-200 / zinc-800 lines. */
const THEMES = {
  light: { text: '#52525b', grid: '#e4e4e7' },
  dark: { text: '#a1a1aa', grid: '#27272a' },
};

const LABEL_WIDTH = 90;
/** Every value is a whole count or whole minutes: no fractional ticks. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000];

function optionsOf(series: readonly ChartSeries[], width: number, dark: boolean): uPlot.Options {
  const theme = dark ? THEMES.dark : THEMES.light;
  const axis: uPlot.Axis = {
    stroke: theme.text,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1 },
    font: '12px ui-sans-serif, system-ui, sans-serif',
  };
  const dayAxis: uPlot.Axis = {
    ...axis,
    // A tick on a bucket's first day, as many as fit (a label needs about 90 px), named as the API names it.
    splits: (chart) => {
      const starts = Array.from(chart.data[0]);
      const room = Math.max(1, Math.floor(chart.bbox.width / uPlot.pxRatio / LABEL_WIDTH));
      const every = Math.ceil(starts.length / room);
      return starts.filter((_start, index) => index % every === 0);
    },
    values: (_chart, splits) => splits.map((seconds) => dayOf(new Date(seconds * 1000))),
  };
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    scales: { x: { time: true } },
    axes: [dayAxis, { ...axis, size: 56, incrs: COUNT_STEPS }],
    series: [
      {},
      ...series.map((one, index) => ({
        label: one.label,
        stroke: seriesColor(index, dark),
        width: 2,
        points: { size: 6 }, // uPlot hides them where buckets crowd
      })),
    ],
  };
}

/**
 * The uPlot canvas, as wide as its container (redrawn at the new width when that changes) and in
 * the theme of the moment. Loaded with the reports page only: uPlot and its CSS stay out of the
 * console's first load.
 */
export function UplotChart({ columns, series }: { columns: ChartColumns; series: readonly ChartSeries[] }) {
  const container = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  useEffect(() => {
    const element = container.current;
    if (!element) {
      return;
    }
    const chart = new uPlot(optionsOf(series, element.clientWidth, dark), columns as uPlot.AlignedData, element);
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientWidth !== chart.width) {
        chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT });
      }
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [columns, series, dark]);
  return <div ref={container} className="w-full overflow-hidden" style={{ minHeight: CHART_HEIGHT }} />;
}
