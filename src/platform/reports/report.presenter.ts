import { SLA_METRICS } from '../../shared/sla.js';
import type {
  AgentsReport,
  DurationReport,
  SatisfactionReport,
  SlaMetricCounts,
  SlaReport,
  VolumeReport,
} from './report.schemas.js';

/**
 * Reports as CSV (`Accept: text/csv`): a header row, one row per bucket (for `agents`, the agents
 * together, `agentId` empty), then the totals as rows whose `start` is `total` (one per agent for `agents`; the
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
    ['start', 'agentId', 'ticketsHandled', 'publicReplies', 'firstReplyMedian', 'slaAttainment', 'goodShare'],
    [...report.series, ...report.totals.agents.map((agent) => ({ start: 'total', ...agent }))],
  );
}

const SLA_COLUMNS = [
  ...SLA_METRICS.flatMap((metric) => ['met', 'breached', 'attainment'].map((name) => `${metric}_${name}`)),
  'attainment',
  'breaches',
];

/** One metric's values as `firstReply_met`, `firstReply_breached`, `firstReply_attainment`… */
function flatSla(values: Omit<SlaMetricCounts, 'policyId' | 'name'>): Record<string, Cell> {
  const cells: Record<string, Cell> = { attainment: values.attainment, breaches: values.breaches };
  for (const metric of SLA_METRICS) {
    for (const [name, value] of Object.entries(values[metric])) {
      cells[`${metric}_${name}`] = value;
    }
  }
  return cells;
}

/**
 * The SLA report: a row per bucket of every policy (`policyId` empty), then per bucket and policy;
 * the totals likewise, as rows whose `start` is `total`.
 */
export function slaCsv(report: SlaReport): string {
  const rows = (start: string, values: SlaReport['totals']) => [
    { start, policyId: null, policyName: null, ...flatSla(values) },
    ...values.byPolicy.map((policy) => ({ start, policyId: policy.policyId, policyName: policy.name, ...flatSla(policy) })),
  ];
  return csv(
    ['start', 'policyId', 'policyName', ...SLA_COLUMNS],
    [...report.series.flatMap((entry) => rows(entry.start, entry)), ...rows('total', report.totals)],
  );
}

export function satisfactionCsv(report: SatisfactionReport): string {
  return csv(
    ['start', 'sent', 'responses', 'good', 'bad', 'goodShare', 'responseRate'],
    [...report.series, { start: 'total', ...report.totals }],
  );
}
