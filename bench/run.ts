import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { Bench, type Datasets, SCENARIOS, type Scenario } from './bench-scenarios.js';
import { buildSwitchboard } from './build.js';
import {
  BENCH_DIR,
  type BenchDialect,
  DATA_DIR,
  type DatasetLocation,
  datasetLocation,
  REPO_DIR,
  SIZE_NAMES,
} from './datasets.js';
import { ensureHelpCenterDatasets, type HelpCenterDatasets } from './help-center-seed.js';
import { COMMON_OPTIONS, parse, resolveTarget, type Target } from './options.js';
import { choosePinning, installCleanup, pinSelf } from './processes.js';
import { renderReport } from './report.js';
import { runReports } from './reports.js';
import { ensureReportsDataset, type ReportsMeta } from './reports-seed.js';
import type { RunResults, RunSettings } from './results.js';
import { ensureDataset } from './seed-data.js';
import { switchboardCli } from './servers.js';

/**
 * `npm run bench`: Switchboard against a raw Fastify + one-prepared-statement server on the same
 * seeded databases, alternating, with autocannon; prints a table of ratios and writes it to
 * bench/RESULTS.md (quick or partial runs write bench/.data/last-results.md instead).
 */

const USAGE = `Usage: npm run bench -- [options]
  --dialect sqlite|postgres|both   default: both when PostgreSQL answers at BENCH_DATABASE_URL
  --quick                          short measurements (about 3 s, one round) for trying it out
  --scenarios a,b                  among ${SCENARIOS.join(', ')} (default: all)
  --duration S                     seconds per path measurement (default 10; quick 3)
  --list-duration S                seconds per list measurement (default 5; quick 2)
  --warmup S                       seconds of warm-up before each measurement (default 1; quick 0.5)
  --rounds N                       Switchboard/raw alternations per measurement (default 3; quick 1)
  --connections N                  autocannon connections for lists and collections (default 10)
  --headline-connections A,B       autocannon connections of the headline paths, each measured (default 10,64)
  --rss-duration S                 seconds of the comment-create load whose peak RSS is measured (default 30; quick 5)
  --start-repeats N                starts timed per server (default 5; quick 3)
  --log-level L                    Switchboard's LOG_LEVEL (default warn: no line per request); the raw baseline never logs
  --rows-1m N                      rows per list of the "1m" dataset, and tickets of the reports dataset (default 1000000)
  --reseed                         seed the datasets again
  --no-build                       skip npm run build (dist/ must be current)
  --out FILE                       where to write the Markdown (default bench/RESULTS.md for full runs)
  --note TEXT                      a line to show under the title of the results
  --render FILE.json               print (and with --out, write) the tables of a saved run, measuring nothing`;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), {
    ...COMMON_OPTIONS,
    quick: { type: 'boolean', default: false },
    scenarios: { type: 'string' },
    duration: { type: 'string' },
    'list-duration': { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string' },
    'headline-connections': { type: 'string' },
    'rss-duration': { type: 'string' },
    'start-repeats': { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    reseed: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    note: { type: 'string' },
    render: { type: 'string' },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.render) {
    // The tables of a saved run again (bench/.data/results-*.json), with the current report code.
    const saved = JSON.parse(readFileSync(values.render, 'utf8')) as RunResults;
    const markdown = renderReport(saved);
    if (values.out) {
      writeFileSync(values.out, `${markdown}\n`);
    }
    console.log(markdown);
    return;
  }
  installCleanup();
  const target = await resolveTarget(values);
  const scenarios = parseScenarios(values.scenarios);
  const quick = values.quick;
  const number = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  const pinning = choosePinning();
  const settings: RunSettings = {
    command: `npm run bench${commandLine(process.argv.slice(2)) ? ` -- ${commandLine(process.argv.slice(2))}` : ''}`,
    note: values.note,
    quick,
    durationSeconds: number(values.duration, quick ? 3 : 10),
    listDurationSeconds: number(values['list-duration'], quick ? 2 : 5),
    warmupSeconds: number(values.warmup, quick ? 0.5 : 1),
    rounds: number(values.rounds, quick ? 1 : 3),
    connections: number(values.connections, 10),
    headlineConnections: (values['headline-connections'] ?? '10,64').split(',').map((count) => {
      const parsed = Number(count);
      if (!Number.isInteger(parsed) || parsed < 1) {
        throw new Error(`--headline-connections takes whole numbers, not ${count}`);
      }
      return parsed;
    }),
    rssSeconds: number(values['rss-duration'], quick ? 5 : 30),
    logLevel: values['log-level'],
    startRepeats: number(values['start-repeats'], quick ? 3 : 5),
    rowsOf1m: target.rowsOf1m,
    pinning: { server: pinning.server, load: pinning.load },
    scenarios,
  };
  const results: RunResults = {
    startedAt: new Date().toISOString(),
    settings,
    machine: {},
    pairs: [],
    starts: [],
    rss: [],
    scale: [],
    profiles: [],
    helpCenter: [],
    reports: [],
    notes: [],
  };
  if (!values['no-build']) {
    buildSwitchboard(log);
  }
  const { datasets, helpCenters, reportsDatasets, ticketScenarios } = await prepareDatasets(target, scenarios, values.reseed);
  results.machine = describeMachine(target);
  // Seeding done: from here this process is the load generator, on its own CPU.
  pinSelf(pinning.load);
  const bench = new Bench(settings, pinning, target, results);
  try {
    for (const [dialect, sizes] of datasets) {
      if (ticketScenarios.length > 0) {
        await bench.runDialect(dialect, sizes, ticketScenarios);
      }
      const helpCenter = helpCenters.get(dialect);
      if (helpCenter) {
        await bench.helpCenter(dialect, helpCenter);
      }
      const reports = reportsDatasets.get(dialect);
      if (reports) {
        const reportsBench = { serverOptions: (label: string) => bench.serverOptions(label), quick, log };
        results.reports?.push(await runReports(reportsBench, dialect, reports));
      }
    }
  } finally {
    await bench.close();
  }
  results.finishedAt = new Date().toISOString();
  const full = !quick && scenarios.length === SCENARIOS.length && target.dialects.length === 2;
  writeResults(results, values.out ?? join(full ? BENCH_DIR : DATA_DIR, full ? 'RESULTS.md' : 'last-results.md'));
}

/** The tables to `out` and the standard output, and the whole run as JSON beside the datasets (for `--render`). */
function writeResults(results: RunResults, out: string): void {
  const markdown = renderReport(results);
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(out, `${markdown}\n`);
  writeFileSync(join(DATA_DIR, `results-${results.startedAt.replaceAll(':', '-')}.json`), JSON.stringify(results, null, 2));
  console.log(markdown);
  log(`written to ${relative(REPO_DIR, out)}`);
}

/**
 * Every dataset the scenarios read, seeded when missing and migrated to the working tree's schema.
 * The help center and the reports have datasets of their own: the ticket datasets are seeded only
 * for the other scenarios.
 */
async function prepareDatasets(target: Target, scenarios: Scenario[], reseed: boolean) {
  const datasets = new Map<BenchDialect, Datasets>();
  const helpCenters = new Map<BenchDialect, HelpCenterDatasets>();
  const reportsDatasets = new Map<BenchDialect, { location: DatasetLocation; meta: ReportsMeta }>();
  const ticketScenarios = scenarios.filter((scenario) => scenario !== 'helpcenter' && scenario !== 'reports');
  for (const dialect of target.dialects) {
    const sizes: Datasets = new Map();
    for (const size of ticketScenarios.length > 0 ? SIZE_NAMES : []) {
      const location = datasetLocation(dialect, size, target.adminUrl);
      const meta = await ensureDataset(location, { ...target, force: reseed, log });
      log(`${dialect} ${size}: migrating (pending migrations of the working tree)`);
      await switchboardCli(location, ['migrate']);
      sizes.set(size, { location, meta });
    }
    datasets.set(dialect, sizes);
    if (scenarios.includes('helpcenter')) {
      helpCenters.set(dialect, await ensureHelpCenterDatasets(dialect, { ...target, force: reseed, log }));
    }
    if (scenarios.includes('reports')) {
      reportsDatasets.set(
        dialect,
        await ensureReportsDataset(dialect, { ...target, tickets: target.rowsOf1m, force: reseed, log }),
      );
    }
  }
  return { datasets, helpCenters, reportsDatasets, ticketScenarios };
}

/** The arguments as they would be typed, the `--note` text left out (it is shown on its own). */
function commandLine(args: string[]): string {
  const shown: string[] = [];
  for (let index = 0; index < args.length; index++) {
    if (args[index] === '--note') {
      index++;
    } else if (!args[index]?.startsWith('--note=')) {
      shown.push(args[index] as string);
    }
  }
  return shown.join(' ');
}

function parseScenarios(value: string | undefined): Scenario[] {
  if (value === undefined) {
    return [...SCENARIOS];
  }
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}; choose among ${SCENARIOS.join(', ')}`);
  }
  return SCENARIOS.filter((name) => names.includes(name));
}

function describeMachine(target: Target): Record<string, string> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? 'unknown';
  const sqlite = new Database(':memory:');
  const sqliteVersion = (sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v;
  sqlite.close();
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', 'src']) !== '';
  return {
    CPUs: `${availableParallelism()} (nproc) × ${model}`,
    Memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    OS: `${execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim()}`,
    'Node.js': process.version,
    PostgreSQL: target.postgresVersion ?? 'not reachable',
    SQLite: `${sqliteVersion} (better-sqlite3)`,
    Commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' with uncommitted changes in src/ (shared working tree)' : ''}`,
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
