import type { BenchDialect, SizeName } from './datasets.js';
import type { HelpCenterResult } from './help-center.js';
import { FEW_ANSWERS, type Measurement } from './load.js';
import type { ListName, ListVariant } from './probes.js';
import type { ReportsResult } from './reports.js';
import type { ServerKind } from './servers.js';

/** Everything one run measured, each measurement once per round (Switchboard and raw alternated). */
export interface PairResult {
  group: 'headline' | 'list' | 'collections';
  dialect: BenchDialect;
  dataset: SizeName;
  name: string;
  list?: ListName;
  variant?: ListVariant;
  /** Collections in the help center (collections group). */
  size?: number;
  /** autocannon connections, when not the run's `connections` (headline paths, at each of `headlineConnections`). */
  connections?: number;
  switchboard: Measurement[];
  raw: Measurement[];
}

export interface StartResult {
  dialect: BenchDialect;
  switchboardMs: number[];
  rawMs: number[];
}

export interface RssResult {
  dialect: BenchDialect;
  switchboardMiB: number[];
  rawMiB: number[];
  /** Requests answered during the load that set the peak. */
  switchboardRequests: number[];
  rawRequests: number[];
}

export interface ScaleResult {
  dialect: BenchDialect;
  name: string;
  switchboardOne: Measurement[];
  switchboardTwo: Measurement[];
  rawOne: Measurement[];
  rawTwo: Measurement[];
}

export interface ProfileResult {
  dialect: BenchDialect;
  /** The headline path under load; absent in results saved before raw profiles were taken (comment create). */
  path?: string;
  server?: ServerKind;
  /** autocannon connections of the load (absent in results saved before it was recorded). */
  connections?: number;
  file: string;
  requests: number;
  markdown: string;
}

export interface RunSettings {
  command: string;
  /** A line shown under the title (`--note`). */
  note?: string;
  quick: boolean;
  durationSeconds: number;
  listDurationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  /** The headline paths are measured at each of these (the run's `connections` for the rest). */
  headlineConnections?: number[];
  /** Seconds of the write load whose peak RSS is measured. */
  rssSeconds?: number;
  /** Switchboard's LOG_LEVEL; the raw baseline does not log. */
  logLevel: string;
  startRepeats: number;
  rowsOf1m: number;
  pinning: { server: string | null; load: string | null };
  scenarios: string[];
}

export interface RunResults {
  startedAt: string;
  finishedAt?: string;
  settings: RunSettings;
  machine: Record<string, string>;
  pairs: PairResult[];
  starts: StartResult[];
  rss: RssResult[];
  scale: ScaleResult[];
  profiles: ProfileResult[];
  /** The public help center's pages (absent in results saved before it was measured). */
  helpCenter?: HelpCenterResult[];
  /** The reports at a million tickets (absent in results saved before they were measured). */
  reports?: ReportsResult[];
  notes: string[];
}

export function median(values: readonly number[]): number {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) {
    return Number.NaN;
  }
  const middle = Math.floor(finite.length / 2);
  return finite.length % 2 ? (finite[middle] as number) : ((finite[middle - 1] as number) + (finite[middle] as number)) / 2;
}

/** The median of every field over the rounds. */
export interface Summary {
  rps: number;
  p99: number;
  p50: number;
  cpu: number;
  dbCpu: number | null;
  /** Server and database CPU per request together. */
  totalCpu: number;
  failed: number;
  ok: number;
  /** Some round had few answers: its p99 is a lower bound. */
  sparse: boolean;
  firstFailure?: string;
}

/**
 * CPU per request of a round. With few answers, the requests still running at the end used CPU in
 * the window too: dividing by the answers plus the connections gives a lower bound instead.
 */
function cpuPerRequest(round: Measurement, value: number): number {
  if (round.ok >= FEW_ANSWERS) {
    return value;
  }
  const answered = round.ok + round.failed;
  return (value * Math.max(1, answered)) / (answered + (round.connections ?? 10));
}

export function summarize(rounds: readonly Measurement[]): Summary {
  const db = rounds
    .filter((round) => round.dbCpuMsPerRequest !== null)
    .map((round) => cpuPerRequest(round, round.dbCpuMsPerRequest ?? 0));
  const cpu = median(rounds.map((round) => cpuPerRequest(round, round.cpuMsPerRequest)));
  const dbCpu = db.length > 0 ? median(db) : null;
  // A round with no answer at all: every request took longer than the window, which bounds its percentiles from below.
  const atLeast = (round: Measurement, value: number) => (round.ok === 0 ? round.seconds * 1000 : value);
  return {
    rps: median(rounds.map((round) => round.requestsPerSecond)),
    p99: median(rounds.map((round) => atLeast(round, round.p99Ms))),
    p50: median(rounds.map((round) => atLeast(round, round.p50Ms))),
    cpu,
    dbCpu,
    totalCpu: median(rounds.map((round) => cpuPerRequest(round, round.cpuMsPerRequest + (round.dbCpuMsPerRequest ?? 0)))),
    failed: rounds.reduce((sum, round) => sum + round.failed, 0),
    ok: rounds.reduce((sum, round) => sum + round.ok, 0),
    sparse: rounds.some((round) => round.ok < FEW_ANSWERS),
    firstFailure: rounds.find((round) => round.firstFailure)?.firstFailure,
  };
}
