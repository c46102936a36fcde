import { SLA_METRICS } from '../../../src/shared/sla';
import { api, unwrap } from '../api/client';
import type { DataOf, QueryOf } from '../api/types';
import { SLA_METRIC_LABELS } from '../ui/sla-countdown';
import { percentOf } from './percent';

export type ReportQuery = QueryOf<'/v1/reports/volume', 'get'>;
type VolumeReport = DataOf<'/v1/reports/volume', 'get'>;
type DurationReport = DataOf<'/v1/reports/first-reply-time', 'get'>;
type AgentsReport = DataOf<'/v1/reports/agents', 'get'>;
type SlaReport = DataOf<'/v1/reports/sla', 'get'>;
type SatisfactionReport = DataOf<'/v1/reports/satisfaction', 'get'>;

/** One bucket of a chart: its first day and a value per series (null: nothing measured). */
export interface ChartRow {
  start: string;
  values: Record<string, number | null>;
}

export interface ChartSeries {
  key: string;
  label: string;
}

/** A total as the page shows it: the API's number as it is, with its unit. */
export interface Figure {
  label: string;
  value: number | null;
  unit?: string;
}

/** A report as the page shows it; the data is whatever its endpoint answers. */
export interface ReportEntry<Data = unknown> {
  name: string;
  title: string;
  description: string;
  /** The series drawn, each a line, in this order. */
  series: readonly ChartSeries[];
  read(query: ReportQuery): Promise<Data>;
  /** The report as CSV, the same query with `Accept: text/csv`. */
  readCsv(query: ReportQuery): Promise<string>;
  rows(data: Data): ChartRow[];
  figures(data: Data): Figure[];
  /** Per agent, the API's totals as they are: a table under the figures. */
  perAgent?(data: Data): AgentTotals[];
}

export interface AgentTotals {
  agentId: string | null;
  ticketsHandled: number;
  publicReplies: number;
  firstReplyMedian: number | null;
  slaAttainment: number | null;
  goodShare: number | null;
}

/** An entry of the list, whatever its data (each entry's functions take what its own `read` answers). */
function report<Data>(entry: ReportEntry<Data>): ReportEntry {
  return entry as unknown as ReportEntry;
}

const CSV = { headers: { accept: 'text/csv' }, parseAs: 'text' } as const;

async function csvOf(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<string> {
  return String(await unwrap(call));
}

const durationSeries = [
  { key: 'calendarMedian', label: 'Median (calendar)' },
  { key: 'calendarP90', label: '90th percentile (calendar)' },
  { key: 'businessMedian', label: 'Median (business hours)' },
  { key: 'businessP90', label: '90th percentile (business hours)' },
] as const;

function durationRows(data: DurationReport): ChartRow[] {
  return data.series.map((bucket) => ({
    start: bucket.start,
    values: Object.fromEntries(durationSeries.map((series) => [series.key, bucket[series.key]])),
  }));
}

function durationFigures(data: DurationReport): Figure[] {
  return [
    { label: 'Measured', value: data.totals.count },
    ...durationSeries.map((series) => ({ label: series.label, value: data.totals[series.key], unit: 'min' })),
  ];
}

const volume: ReportEntry<VolumeReport> = {
  name: 'volume',
  title: 'Volume',
  description: 'Tickets created, closed and reopened, and the open tickets at the end of each period',
  series: [
    { key: 'created', label: 'Created' },
    { key: 'closed', label: 'Closed' },
    { key: 'reopened', label: 'Reopened' },
    { key: 'backlog', label: 'Backlog' },
  ],
  read: async (query) => (await unwrap(api.GET('/v1/reports/volume', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/volume', { params: { query }, ...CSV })),
  rows: (data) => data.series.map(({ start, ...values }) => ({ start, values })),
  figures: (data) => [
    { label: 'Created', value: data.totals.created },
    { label: 'Closed', value: data.totals.closed },
    { label: 'Reopened', value: data.totals.reopened },
    { label: 'Backlog at the end', value: data.totals.backlog },
  ],
};

const firstReplyTime: ReportEntry<DurationReport> = {
  name: 'first-reply-time',
  title: 'First reply time',
  description: "From a ticket's creation to the first public reply by a person, in minutes",
  series: durationSeries,
  read: async (query) => (await unwrap(api.GET('/v1/reports/first-reply-time', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/first-reply-time', { params: { query }, ...CSV })),
  rows: durationRows,
  figures: durationFigures,
};

const resolutionTime: ReportEntry<DurationReport> = {
  name: 'resolution-time',
  title: 'Resolution time',
  description: "From a ticket's creation to each close (a reopened ticket counts again), in minutes",
  series: durationSeries,
  read: async (query) => (await unwrap(api.GET('/v1/reports/resolution-time', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/resolution-time', { params: { query }, ...CSV })),
  rows: durationRows,
  figures: durationFigures,
};

/** The series is the agents together per bucket (the team's work); each agent is in the table below. */
const agentRows = (data: AgentsReport): ChartRow[] =>
  data.series.map(({ start, ticketsHandled, publicReplies }) => ({ start, values: { ticketsHandled, publicReplies } }));

const agents: ReportEntry<AgentsReport> = {
  name: 'agents',
  title: 'Agents',
  description: 'Tickets closed while assigned, and public replies, of every agent together',
  series: [
    { key: 'ticketsHandled', label: 'Tickets handled' },
    { key: 'publicReplies', label: 'Public replies' },
  ],
  read: async (query) => (await unwrap(api.GET('/v1/reports/agents', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/agents', { params: { query }, ...CSV })),
  rows: agentRows,
  figures: () => [],
  perAgent: (data) => data.totals.agents,
};

/** The SLA report's metrics in the API's order, named as the inbox and the ticket page name them. */
const SLA_REPORT_METRICS = SLA_METRICS.map((key) => ({ key, label: SLA_METRIC_LABELS[key] }));

const sla: ReportEntry<SlaReport> = {
  name: 'sla',
  title: 'SLA',
  description: 'Targets met in time as a share of those met or breached, per metric, and the breaches',
  series: [
    { key: 'attainment', label: 'Attainment, every metric (%)' },
    ...SLA_REPORT_METRICS.map(({ key, label }) => ({ key, label: `${label} (%)` })),
  ],
  read: async (query) => (await unwrap(api.GET('/v1/reports/sla', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/sla', { params: { query }, ...CSV })),
  rows: (data) =>
    data.series.map((bucket) => ({
      start: bucket.start,
      values: {
        attainment: percentOf(bucket.attainment),
        ...Object.fromEntries(SLA_REPORT_METRICS.map(({ key }) => [key, percentOf(bucket[key].attainment)])),
      },
    })),
  figures: (data) => [
    { label: 'Attainment', value: percentOf(data.totals.attainment), unit: '%' },
    { label: 'Breaches', value: data.totals.breaches },
    ...SLA_REPORT_METRICS.map(({ key, label }) => ({ label, value: percentOf(data.totals[key].attainment), unit: '%' })),
  ],
};

const satisfaction: ReportEntry<SatisfactionReport> = {
  name: 'satisfaction',
  title: 'Satisfaction',
  description: 'Surveys sent, the ratings customers gave, and the share of them that were Good',
  series: [
    { key: 'goodShare', label: 'Good (%)' },
    { key: 'responseRate', label: 'Response rate (%)' },
  ],
  read: async (query) => (await unwrap(api.GET('/v1/reports/satisfaction', { params: { query } }))).data,
  readCsv: (query) => csvOf(api.GET('/v1/reports/satisfaction', { params: { query }, ...CSV })),
  rows: (data) =>
    data.series.map((bucket) => ({
      start: bucket.start,
      values: { goodShare: percentOf(bucket.goodShare), responseRate: percentOf(bucket.responseRate) },
    })),
  figures: (data) => [
    { label: 'Good', value: percentOf(data.totals.goodShare), unit: '%' },
    { label: 'Responses', value: data.totals.responses },
    { label: 'Surveys sent', value: data.totals.sent },
    { label: 'Response rate', value: percentOf(data.totals.responseRate), unit: '%' },
  ],
};

/**
 * The reports the page offers, in the picker's order. A new report is one entry: its endpoint,
 * the series to draw and the totals to show.
 */
export const REPORTS: readonly ReportEntry[] = [
  report(volume),
  report(firstReplyTime),
  report(resolutionTime),
  report(sla),
  report(satisfaction),
  report(agents),
];

export function reportNamed(name: string | undefined): ReportEntry {
  return REPORTS.find((report) => report.name === name) ?? (REPORTS[0] as ReportEntry);
}
