import type { AgentsReport, DurationReport, VolumeReport } from './report.schemas.js';

/**
 * Reports as CSV (`Accept: text/csv`): a header row, one row per bucket (per bucket and agent for
 * `agents`), then the totals as rows whose `start` is `total` (one per agent for `agents`; the
 * volume's `backlog` there is the backlog at the end of the range). Empty cells are nulls.
 */

type Cell = string | number | null;

function cell(value: Cell): string {
  if (value === null) {
    return '';
  }
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(columns: readonly string[], rows: readonly Record<string, Cell>[]): string {
  return [columns, ...rows.map((row) => columns.map((column) => row[column] ?? null))]
    .map((line) => line.map(cell).join(','))
    .join('\r\n')
    .concat('\r\n');
}

export function volumeCsv(report: VolumeReport): string {
  return csv(['start', 'created', 'closed', 'reopened', 'backlog'], [...report.series, { start: 'total', ...report.totals }]);
}

export function durationCsv(report: DurationReport): string {
  return csv(
    ['start', 'count', 'calendarMedian', 'calendarP90', 'businessMedian', 'businessP90'],
    [...report.series, { start: 'total', ...report.totals }],
  );
}

export function agentsCsv(report: AgentsReport): string {
  return csv(
    ['start', 'agentId', 'ticketsHandled', 'publicReplies', 'firstReplyMedian'],
    [...report.series, ...report.totals.agents.map((agent) => ({ start: 'total', ...agent }))],
  );
}
