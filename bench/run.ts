import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildSwitchboard } from './build.js';
import { profileMarkdown, readProfile, summarizeProfile } from './cpu-profile.js';
import {
  BENCH_DIR,
  type BenchDialect,
  DATA_DIR,
  type DatasetLocation,
  type DatasetMeta,
  datasetLocation,
  REPO_DIR,
  SIZE_NAMES,
  type SizeName,
  sqliteFile,
} from './datasets.js';
import { runHelpCenter } from './help-center.js';
import { ensureHelpCenterDatasets, type HelpCenterDatasets } from './help-center-seed.js';
import { type HttpRequest, type LoadOptions, type Measurement, measure } from './load.js';
import { COMMON_OPTIONS, parse, resolveTarget, type Target } from './options.js';
import {
  collectionProbe,
  findDeepCursor,
  firstItemId,
  headlineProbes,
  LIST_LABELS,
  LIST_NAMES,
  type ListName,
  type ListVariant,
  listProbe,
  type Probe,
  pagedByNumber,
} from './probes.js';
import { choosePinning, installCleanup, type Pinning, pinSelf, sleep, statusMiB } from './processes.js';
import { renderReport } from './report.js';
import { runReports } from './reports.js';
import { ensureReportsDataset, type ReportsMeta } from './reports-seed.js';
import type { PairResult, RunResults, RunSettings } from './results.js';
import { ensureDataset } from './seed-data.js';
import { openPostgresSeedDb, openSqliteSeedDb } from './seed-db.js';
import {
  api,
  type BenchServer,
  type ServerKind,
  type ServerOptions,
  startRaw,
  startSwitchboard,
  switchboardCli,
  waitUntilAnswering,
} from './servers.js';

/**
 * `npm run bench`: Switchboard against a raw Fastify + one-prepared-statement server on the same
 * seeded databases, alternating, with autocannon; prints a table of ratios and writes it to
 * bench/RESULTS.md (quick or partial runs write bench/.data/last-results.md instead).
 */
const SCENARIOS = ['headline', 'lists', 'collections', 'helpcenter', 'reports', 'start', 'rss', 'scale', 'profile'] as const;
type Scenario = (typeof SCENARIOS)[number];

const USAGE = `Usage: npm run bench -- [options]
  --dialect sqlite|postgres|both   default: both when PostgreSQL answers at BENCH_DATABASE_URL
  --quick                          short measurements (about 3 s, one round) for trying it out
  --scenarios a,b                  among ${SCENARIOS.join(', ')} (default: all)
  --duration S                     seconds per path measurement (default 10; quick 3)
  --list-duration S                seconds per list measurement (default 5; quick 2)
  --warmup S                       seconds of warm-up before each measurement (default 1; quick 0.5)
  --rounds N                       Switchboard/raw alternations per measurement (default 3; quick 1)
  --connections N                  autocannon connections (default 10)
  --start-repeats N                starts timed per server (default 5; quick 3)
  --log-level L                    LOG_LEVEL of both servers (default info, as in production)
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
    'start-repeats': { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
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

type Datasets = Map<SizeName, { location: DatasetLocation; meta: DatasetMeta }>;

class Bench {
  private admin: pg.Client | null = null;
  /** The servers of the dataset being measured: all must be idle before a measurement starts. */
  private running: BenchServer[] = [];

  constructor(
    private readonly settings: RunSettings,
    private readonly pinning: Pinning,
    private readonly target: Target,
    private readonly results: RunResults,
  ) {}

  async close(): Promise<void> {
    await this.admin?.end();
  }

  async runDialect(dialect: BenchDialect, datasets: Datasets, scenarios: Scenario[]): Promise<void> {
    const large = datasets.get('1m');
    if (!large) {
      throw new Error('the 1m dataset is missing');
    }
    await removeWrittenComments(large.location, large.meta);
    for (const size of SIZE_NAMES) {
      const dataset = datasets.get(size);
      const wanted = scenarios.filter((s) => s === 'lists' || s === 'collections' || (s === 'headline' && size === '1m'));
      if (dataset && wanted.length > 0) {
        await this.withServers(dataset.location, `${dialect}-${size}`, async (switchboard, raw) => {
          if (wanted.includes('lists')) {
            await this.lists(dialect, size, dataset.meta, switchboard, raw);
          }
          if (wanted.includes('collections')) {
            for (const set of dataset.meta.collections) {
              const probe = await collectionProbe(set, switchboard);
              await this.checkSamePage(dialect, size, probe, switchboard, raw, set.apiKey);
              await this.pair({ group: 'collections', dialect, dataset: size, size: set.count }, probe, switchboard, raw);
            }
          }
          if (wanted.includes('headline')) {
            for (const probe of headlineProbes(dataset.meta)) {
              await this.pair(
                { group: 'headline', dialect, dataset: size },
                probe,
                switchboard,
                raw,
                this.settings.durationSeconds,
              );
            }
          }
        });
        await removeWrittenComments(dataset.location, dataset.meta);
      }
    }
    if (scenarios.includes('start')) {
      await this.startTimes(dialect, large.location, large.meta);
    }
    if (scenarios.includes('rss')) {
      await this.peakMemory(dialect, large.location, large.meta);
    }
    if (scenarios.includes('scale') && dialect === 'postgres') {
      await this.twoProcesses(dialect, large.location, large.meta);
    }
    if (scenarios.includes('profile') && dialect === 'sqlite') {
      await this.profile(dialect, large.location, large.meta);
    }
    await removeWrittenComments(large.location, large.meta);
  }

  /** The public help center (bench/help-center.ts), with this run's settings and measurements. */
  async helpCenter(dialect: BenchDialect, datasets: HelpCenterDatasets): Promise<void> {
    const result = await runHelpCenter(
      {
        settings: this.settings,
        serverOptions: (label) => this.serverOptions(label),
        measureOn: (servers, request, duration) => this.measureOn(servers, request, duration),
        track: (servers) => {
          this.running = servers;
        },
        note: (line) => this.note(line),
        log,
      },
      dialect,
      datasets,
    );
    this.results.helpCenter?.push(result);
  }

  serverOptions(label: string, cpus: string | null = this.pinning.server): ServerOptions {
    return { cpus, logLevel: this.settings.logLevel, label };
  }

  /** Switchboard and raw on one dataset, both on the servers' CPU, ready and warm; both stopped afterwards. */
  private async withServers(
    location: DatasetLocation,
    label: string,
    run: (switchboard: BenchServer, raw: BenchServer) => Promise<void>,
  ): Promise<void> {
    const meta = readMetaOf(location);
    const servers: BenchServer[] = [];
    this.running = servers;
    try {
      const switchboard = await startSwitchboard(location, this.serverOptions(`${label}-switchboard`));
      servers.push(switchboard);
      const raw = await startRaw(location, this.serverOptions(`${label}-raw`));
      servers.push(raw);
      await waitUntilAnswering(switchboard, meta.apiKey);
      await waitUntilAnswering(raw, meta.apiKey);
      await run(switchboard, raw);
    } finally {
      this.running = [];
      await Promise.all(servers.map((server) => server.stop()));
    }
  }

  /**
   * Every list's first page and deep cursor, then every deep page by number. A deep page by OFFSET
   * walks a million index entries on every request; measured in between, the paths right after it
   * came out up to twice as slow at p99 for tens of seconds, in runs where the same paths measured
   * alone were flat (why it lingers, past the idle wait, is not known).
   */
  private async lists(dialect: BenchDialect, size: SizeName, meta: DatasetMeta, switchboard: BenchServer, raw: BenchServer) {
    const measureList = async (list: ListName, variant: ListVariant, cursor?: string) => {
      const probe = listProbe(meta, list, variant, cursor);
      await this.checkSamePage(dialect, size, probe, switchboard, raw, meta.apiKey);
      await this.pair({ group: 'list', dialect, dataset: size, list, variant }, probe, switchboard, raw);
    };
    for (const list of LIST_NAMES) {
      const found = await findDeepCursor(switchboard, raw, meta, list);
      await measureList(list, 'first');
      if (found.cursor) {
        await measureList(list, 'deep cursor', found.cursor);
      } else {
        this.note(`${dialect} ${size}: ${LIST_LABELS[list]}: no deep cursor measured (${found.note})`);
      }
    }
    for (const list of LIST_NAMES.filter(pagedByNumber)) {
      await measureList(list, 'deep page');
    }
  }

  /** Both servers must answer the same page, or the comparison means nothing: a difference is noted. */
  private async checkSamePage(
    dialect: BenchDialect,
    size: SizeName,
    probe: Probe,
    switchboard: BenchServer,
    raw: BenchServer,
    apiKey: string,
  ): Promise<void> {
    const [fromSwitchboard, fromRaw] = await Promise.all([
      api(switchboard, apiKey, 'GET', probe.switchboard.path),
      api(raw, apiKey, 'GET', probe.raw.path),
    ]);
    const [a, b] = [firstItemId(fromSwitchboard), firstItemId(fromRaw)];
    if (a !== b) {
      this.note(`${dialect} ${size}: ${probe.name}: Switchboard's page starts at ${a}, raw's at ${b}`);
    }
  }

  private async pair(
    identity: Omit<PairResult, 'name' | 'switchboard' | 'raw'>,
    probe: Probe,
    switchboard: BenchServer,
    raw: BenchServer,
    duration = this.settings.listDurationSeconds,
  ): Promise<void> {
    const result: PairResult = { ...identity, name: probe.name, switchboard: [], raw: [] };
    this.results.pairs.push(result);
    for (let round = 0; round < this.settings.rounds; round++) {
      result.switchboard.push(await this.measureOn([switchboard], probe.switchboard, duration));
      result.raw.push(await this.measureOn([raw], probe.raw, duration));
    }
    const [sb, rw] = [result.switchboard.at(-1), result.raw.at(-1)];
    log(
      `  ${identity.dialect} ${identity.dataset} ${probe.name}: switchboard ${sb?.requestsPerSecond.toFixed(0)} req/s p99 ${sb?.p99Ms.toFixed(
        2,
      )} ms, raw ${rw?.requestsPerSecond.toFixed(0)} req/s p99 ${rw?.p99Ms.toFixed(2)} ms`,
    );
  }

  /**
   * One measurement; a server that something outside the benchmark ended (before or during it) is
   * started again and the measurement repeated once, with a note.
   */
  private async measureOn(servers: BenchServer[], request: HttpRequest, durationSeconds: number): Promise<Measurement> {
    for (let attempt = 0; ; attempt++) {
      for (const server of servers.filter((candidate) => !candidate.alive())) {
        this.note(`${server.kind} (${server.processes[0]?.logFile ?? '?'}) had exited; started again`);
        await server.restart(request.apiKey);
      }
      const measured = await this.measureOnce(servers, request, durationSeconds);
      if (servers.every((server) => server.alive()) || attempt > 0) {
        return measured;
      }
    }
  }

  private measureOnce(servers: BenchServer[], request: HttpRequest, durationSeconds: number): Promise<Measurement> {
    const options: LoadOptions = {
      durationSeconds,
      warmupSeconds: this.settings.warmupSeconds,
      connections: this.settings.connections,
      cpuPids: async () => ({
        server: servers.flatMap((server) => server.processes.map((started) => started.pid)),
        database: await this.backendPids(servers.map((server) => server.applicationName)),
      }),
      quietPids: async () => {
        const all = [...new Set([...this.running, ...servers])];
        const processes = all.flatMap((server) => server.processes.map((started) => started.pid));
        return [...processes, ...(await this.backendPids(all.map((server) => server.applicationName)))];
      },
    };
    return measure(
      servers.map((server) => server.baseUrl),
      request,
      options,
    );
  }

  /** PostgreSQL backends serving these servers, found by the application_name of their connections. */
  private async backendPids(names: (string | undefined)[]): Promise<number[]> {
    const wanted = names.filter((name): name is string => name !== undefined);
    if (wanted.length === 0) {
      return [];
    }
    if (!this.admin) {
      this.admin = new pg.Client({ connectionString: this.target.adminUrl });
      await this.admin.connect();
    }
    const { rows } = await this.admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = any($1)',
      [wanted],
    );
    return rows.map((row) => row.pid);
  }

  private async startTimes(dialect: BenchDialect, location: DatasetLocation, meta: DatasetMeta): Promise<void> {
    log(`  ${dialect}: start times`);
    const result = { dialect, switchboardMs: [] as number[], rawMs: [] as number[] };
    this.results.starts.push(result);
    for (let round = 0; round < this.settings.startRepeats; round++) {
      for (const kind of ['switchboard', 'raw'] as const) {
        const since = performance.now();
        const options = this.serverOptions(`${dialect}-start-${kind}`);
        const server = kind === 'switchboard' ? await startSwitchboard(location, options) : await startRaw(location, options);
        try {
          const elapsed = await waitUntilAnswering(server, meta.apiKey, { since, intervalMs: 10, timeoutMs: 120_000 });
          (kind === 'switchboard' ? result.switchboardMs : result.rawMs).push(elapsed);
        } finally {
          await server.stop();
        }
      }
    }
  }

  /** A fresh process per server and round, so the peak (VmHWM) is the write load's. */
  private async peakMemory(dialect: BenchDialect, location: DatasetLocation, meta: DatasetMeta): Promise<void> {
    log(`  ${dialect}: peak memory under the write load`);
    const result = {
      dialect,
      switchboardMiB: [] as number[],
      rawMiB: [] as number[],
      switchboardRequests: [] as number[],
      rawRequests: [] as number[],
    };
    this.results.rss.push(result);
    const [comment] = headlineProbes(meta);
    if (!comment) {
      return;
    }
    for (let round = 0; round < this.settings.rounds; round++) {
      for (const kind of ['switchboard', 'raw'] as const) {
        const options = this.serverOptions(`${dialect}-rss-${kind}`);
        const server = kind === 'switchboard' ? await startSwitchboard(location, options) : await startRaw(location, options);
        try {
          await waitUntilAnswering(server, meta.apiKey);
          const measured = await measure([server.baseUrl], comment.switchboard, {
            durationSeconds: this.settings.durationSeconds,
            warmupSeconds: 0,
            connections: this.settings.connections,
            cpuPids: async () => ({ server: [], database: [] }),
          });
          if (!server.alive()) {
            this.note(`${kind} exited during the memory measurement; that round is left out`);
            continue;
          }
          const pid = server.processes[0]?.pid ?? 0;
          (kind === 'switchboard' ? result.switchboardMiB : result.rawMiB).push(statusMiB(pid, 'VmHWM'));
          (kind === 'switchboard' ? result.switchboardRequests : result.rawRequests).push(measured.ok);
        } finally {
          await server.stop();
        }
      }
    }
    await removeWrittenComments(location, meta);
  }

  /** Each path with one process and with two on the same database (PostgreSQL), none pinned. */
  private async twoProcesses(dialect: BenchDialect, location: DatasetLocation, meta: DatasetMeta): Promise<void> {
    log(`  ${dialect}: two processes against one`);
    const servers: BenchServer[] = [];
    try {
      const start = async (kind: 'switchboard' | 'raw', index: number) => {
        const options = this.serverOptions(`${dialect}-scale-${kind}-${index}`, this.pinning.all);
        const server = kind === 'switchboard' ? await startSwitchboard(location, options) : await startRaw(location, options);
        servers.push(server);
        await waitUntilAnswering(server, meta.apiKey);
        return server;
      };
      const switchboard = [await start('switchboard', 1), await start('switchboard', 2)];
      const raw = [await start('raw', 1), await start('raw', 2)];
      for (const probe of headlineProbes(meta)) {
        const row = { dialect, name: probe.name, switchboardOne: [], switchboardTwo: [], rawOne: [], rawTwo: [] } as {
          dialect: BenchDialect;
          name: string;
          switchboardOne: Measurement[];
          switchboardTwo: Measurement[];
          rawOne: Measurement[];
          rawTwo: Measurement[];
        };
        this.results.scale.push(row);
        const duration = this.settings.durationSeconds;
        for (let round = 0; round < this.settings.rounds; round++) {
          row.switchboardOne.push(await this.measureOn(switchboard.slice(0, 1), probe.switchboard, duration));
          row.rawOne.push(await this.measureOn(raw.slice(0, 1), probe.raw, duration));
          row.switchboardTwo.push(await this.measureOn(switchboard, probe.switchboard, duration));
          row.rawTwo.push(await this.measureOn(raw, probe.raw, duration));
        }
        log(`  ${dialect} ${probe.name}: 1 and 2 processes measured`);
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
    await removeWrittenComments(location, meta);
  }

  /**
   * `node --cpu-prof` on Switchboard and on the raw baseline during each headline load, side by
   * side, so the profile names where Switchboard's extra CPU per request goes; each profile is
   * written when its process exits.
   */
  private async profile(dialect: BenchDialect, location: DatasetLocation, meta: DatasetMeta): Promise<void> {
    for (const probe of headlineProbes(meta)) {
      for (const kind of ['switchboard', 'raw'] as const) {
        log(`  ${dialect}: CPU profile of ${probe.name} on ${kind}`);
        await this.profileOne(dialect, location, meta, probe, kind);
      }
    }
  }

  private async profileOne(
    dialect: BenchDialect,
    location: DatasetLocation,
    meta: DatasetMeta,
    probe: Probe,
    kind: ServerKind,
  ): Promise<void> {
    const directory = join(DATA_DIR, 'profiles', `${dialect}-${kind}-${Date.now()}`);
    mkdirSync(directory, { recursive: true });
    const spawnedAt = performance.now();
    const options = {
      ...this.serverOptions(`${dialect}-profile-${kind}`),
      nodeFlags: ['--cpu-prof', '--cpu-prof-dir', directory],
    };
    const server = kind === 'switchboard' ? await startSwitchboard(location, options) : await startRaw(location, options);
    let requests = 0;
    let readyAfterMs = 0;
    try {
      readyAfterMs = await waitUntilAnswering(server, meta.apiKey, { since: spawnedAt });
      // No separate warm-up: every request after the start is in the profile, and counted.
      const measured = await measure([server.baseUrl], kind === 'switchboard' ? probe.switchboard : probe.raw, {
        durationSeconds: this.settings.durationSeconds,
        warmupSeconds: 0,
        connections: this.settings.connections,
        cpuPids: async () => ({ server: [], database: [] }),
      });
      requests = measured.ok + measured.failed;
    } finally {
      await server.stop();
    }
    await sleep(200);
    const [file] = readdirSync(directory)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => join(directory, name))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    if (!file) {
      this.note(`${dialect}: no .cpuprofile was written in ${relative(REPO_DIR, directory)}`);
      return;
    }
    // The start (module loading) is left out.
    const summary = summarizeProfile(readProfile(file), { fromMs: readyAfterMs });
    this.results.profiles.push({
      dialect,
      path: probe.name,
      server: kind,
      file: relative(REPO_DIR, file),
      requests,
      markdown: profileMarkdown(summary, requests),
    });
    await removeWrittenComments(location, meta);
  }

  private note(line: string): void {
    log(`  note: ${line}`);
    this.results.notes.push(line);
  }
}

function readMetaOf(location: DatasetLocation): DatasetMeta {
  return JSON.parse(readFileSync(location.metaFile, 'utf8')) as DatasetMeta;
}

/** The comments the write load added, removed so every run starts from the seeded dataset. */
async function removeWrittenComments(location: DatasetLocation, meta: DatasetMeta): Promise<void> {
  const db = location.databaseUrl ? await openPostgresSeedDb(location.databaseUrl) : openSqliteSeedDb(sqliteFile(location));
  try {
    await db.exec('delete from ticket_comments where ticket_id = ?', [meta.writeTicketId]);
    await db.finish();
  } finally {
    await db.close();
  }
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
