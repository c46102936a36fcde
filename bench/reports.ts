import type { BenchDialect, DatasetLocation } from './datasets.js';
import type { ReportsMeta } from './reports-seed.js';
import { type ServerOptions, startSwitchboard, waitUntilAnswering } from './servers.js';

/**
 * The reports in `npm run bench`: each report of `GET /v1/reports/…` over the last 90 days of the
 * reports dataset (1,000,000 tickets over a year, `reports-seed.ts`), for the whole organization,
 * one team and one agent, timed one request after another through the API (a report is one
 * person's request, not a throughput), and `GET /metrics` on the same server. Target: under 500 ms.
 */
export const REPORT_TARGET_MS = 500;
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

export interface ReportTiming {
  name: string;
  path: string;
  /** Bytes of the answer, for a sense of what was computed. */
  bytes: number;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface ReportsResult {
  dialect: BenchDialect;
  tickets: number;
  rows: Record<string, number>;
  range: { from: string; to: string };
  timings: ReportTiming[];
}

export interface ReportsBench {
  serverOptions(label: string): ServerOptions;
  quick: boolean;
  log(line: string): void;
}

const dayBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

export async function runReports(
  bench: ReportsBench,
  dialect: BenchDialect,
  dataset: { location: DatasetLocation; meta: ReportsMeta },
): Promise<ReportsResult> {
  const { meta } = dataset;
  const to = meta.lastDay;
  const from = dayBefore(to, 89);
  const yearFrom = dayBefore(to, 364);
  const server = await startSwitchboard(dataset.location, {
    ...bench.serverOptions(`${dialect}-reports`),
    env: { METRICS_TOKEN },
  });
  const result: ReportsResult = { dialect, tickets: meta.tickets, rows: meta.rows, range: { from, to }, timings: [] };
  try {
    await waitUntilAnswering(server, meta.apiKey);
    const team = meta.teamIds[0] as string;
    const agent = meta.agentIds[0] as string;
    const range = `from=${from}&to=${to}`;
    const probes: { name: string; path: string; accept?: string; bearer?: boolean }[] = [
      ...['volume', 'first-reply-time', 'resolution-time', 'sla', 'satisfaction', 'agents'].map((report) => ({
        name: `${report}, organization, by day`,
        path: `/v1/reports/${report}?${range}`,
      })),
      { name: 'volume, organization, by week', path: `/v1/reports/volume?${range}&interval=week` },
      { name: 'first-reply-time, one team, by day', path: `/v1/reports/first-reply-time?${range}&teamId=${team}` },
      { name: 'agents, one agent, by day', path: `/v1/reports/agents?${range}&agentId=${agent}` },
      { name: 'volume, organization, CSV', path: `/v1/reports/volume?${range}`, accept: 'text/csv' },
      {
        name: 'first-reply-time, organization, 365 days by month',
        path: `/v1/reports/first-reply-time?from=${yearFrom}&to=${to}&interval=month`,
      },
      { name: 'GET /metrics', path: '/metrics', bearer: true },
    ];
    const samples = bench.quick ? 5 : 20;
    for (const probe of probes) {
      const headers: Record<string, string> = probe.bearer
        ? { authorization: `Bearer ${METRICS_TOKEN}` }
        : { 'x-api-key': meta.apiKey, accept: probe.accept ?? 'application/json' };
      const timing = await timeRequests(`${server.baseUrl}${probe.path}`, headers, samples);
      result.timings.push({ name: probe.name, path: probe.path, ...timing });
      bench.log(
        `  ${dialect} ${probe.name}: p50 ${timing.p50Ms.toFixed(1)} ms, max ${timing.maxMs.toFixed(1)} ms, ${timing.bytes} bytes`,
      );
    }
  } finally {
    await server.stop();
  }
  return result;
}

/** Three warm-up requests, then `samples` one after another; each must answer 200. */
async function timeRequests(url: string, headers: Record<string, string>, samples: number) {
  const durations: number[] = [];
  let bytes = 0;
  for (let index = 0; index < samples + 3; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
    const body = await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(`GET ${url} answered ${response.status}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
    }
    bytes = body.byteLength;
    if (index >= 3) {
      durations.push(elapsed);
    }
  }
  durations.sort((a, b) => a - b);
  const at = (share: number) => durations[Math.min(durations.length - 1, Math.ceil(share * durations.length) - 1)] ?? 0;
  return { bytes, samples, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: durations.at(-1) ?? 0 };
}

/** The "Reports at a million tickets" section and its line of the targets table. */
export function reportsSection(results: readonly ReportsResult[]): {
  lines: string[];
  targets: { target: string; value: string; ok: boolean | null }[];
} {
  if (results.length === 0) {
    return { lines: [], targets: [] };
  }
  const lines = [
    `Each report over the last 90 days of a year of ${results[0]?.tickets.toLocaleString('en')} tickets (20 teams in five time zones, 200 agents, one SLA policy; \`bench/reports-seed.ts\`), one request after another through the API after three warm-ups; target under ${REPORT_TARGET_MS} ms. Aggregate rows: ${results
      .map(
        (result) =>
          `${result.dialect} ${Object.entries(result.rows)
            .map(([table, rows]) => `${table} ${rows.toLocaleString('en')}`)
            .join(', ')}`,
      )
      .join('; ')}.`,
    '',
    `| Report | ${results.map((result) => `${result.dialect} p50 | ${result.dialect} p95 | ${result.dialect} max`).join(' | ')} | Answer |`,
    `|---|${results.map(() => '---:|---:|---:').join('|')}|---:|`,
  ];
  const names = results[0]?.timings.map((timing) => timing.name) ?? [];
  for (const name of names) {
    const cells = results.map((result) => {
      const timing = result.timings.find((entry) => entry.name === name);
      return timing
        ? `${timing.p50Ms.toFixed(1)} ms | ${timing.p95Ms.toFixed(1)} ms | ${timing.maxMs.toFixed(1)} ms`
        : '– | – | –';
    });
    const bytes = results[0]?.timings.find((entry) => entry.name === name)?.bytes ?? 0;
    lines.push(`| ${name} | ${cells.join(' | ')} | ${(bytes / 1024).toFixed(1)} kB |`);
  }
  const targets = results.map((result) => {
    const reports = result.timings.filter((timing) => timing.path.startsWith('/v1/reports/') && !timing.name.includes('365'));
    const worst = Math.max(...reports.map((timing) => timing.p95Ms));
    return {
      target: `every 90-day report < ${REPORT_TARGET_MS} ms at ${result.tickets.toLocaleString('en')} tickets (${result.dialect}, p95)`,
      value: `${worst.toFixed(1)} ms (slowest)`,
      ok: Number.isFinite(worst) ? worst < REPORT_TARGET_MS : null,
    };
  });
  return { lines, targets };
}
