import { type DayRange, isDay, presetRange, RANGE_PRESETS, type RangeChoice } from './report-range';

export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/**
 * The reports page's place in the URL: the report shown (absent: the first), the range (a preset,
 * or `custom` with its own `from` and `to`), the team (absent: every team) and the bucket size.
 */
export interface ReportSearch {
  report?: string;
  range?: RangeChoice;
  from?: string;
  to?: string;
  team?: string;
  interval?: ReportInterval;
}

const DEFAULT_RANGE = '30d';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : undefined;
}

/** What a (possibly hand-written) URL says, keeping only values that make sense. */
export function parseReportSearch(search: Record<string, unknown>): ReportSearch {
  const range = [...RANGE_PRESETS.map((preset) => preset.value), 'custom'].find((value) => value === search.range) as
    | RangeChoice
    | undefined;
  const from = text(search.from);
  const to = text(search.to);
  const result: ReportSearch = {
    report: text(search.report),
    range,
    team: text(search.team),
    interval: REPORT_INTERVALS.find((interval) => interval === search.interval),
  };
  if (range === 'custom') {
    result.from = from && isDay(from) ? from : undefined;
    result.to = to && isDay(to) ? to : undefined;
  }
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as ReportSearch;
}

/** The range a search asks for: a preset's days ending `today`, or the custom days (a missing end is today's preset's). */
export function rangeOf(search: ReportSearch, today: Date): DayRange {
  if (search.range === 'custom') {
    const fallback = presetRange(DEFAULT_RANGE, today);
    return { from: search.from ?? fallback.from, to: search.to ?? fallback.to };
  }
  return presetRange(search.range ?? DEFAULT_RANGE, today);
}

export function rangeChoiceOf(search: ReportSearch): RangeChoice {
  return search.range ?? DEFAULT_RANGE;
}
