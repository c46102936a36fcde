import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';
import { profileMarkdown, readProfile, summarizeProfile } from './cpu-profile.js';
import {
  type BenchDialect,
  DATA_DIR,
  type DatasetLocation,
  type DatasetMeta,
  REPO_DIR,
  SIZE_NAMES,
  type SizeName,
} from './datasets.js';
import { runHelpCenter } from './help-center.js';
import type { HelpCenterDatasets } from './help-center-seed.js';
import { type HttpRequest, type LoadOptions, type Measurement, measure } from './load.js';
import type { Target } from './options.js';
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
import { type Pinning, sleep, statusMiB } from './processes.js';
import type { PairResult, RunResults, RunSettings } from './results.js';
import { readMetaOf, removeWrittenComments } from './seed-db.js';
import {
  api,
  type BenchServer,
  type ServerKind,
  type ServerOptions,
  startRaw,
  startSwitchboard,
  waitUntilAnswering,
} from './servers.js';

/**
 * The scenarios of `npm run bench` (bench/run.ts): each measures Switchboard against the raw
 * baseline, alternating, on the datasets the runner prepared, and adds its rows to the results.
 */
export const SCENARIOS = [
  'headline',
  'lists',
  'collections',
  'helpcenter',
  'reports',
  'start',
  'rss',
  'scale',
  'profile',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

const log = (line: string) => process.stderr.write(`${line}\n`);

export type Datasets = Map<SizeName, { location: DatasetLocation; meta: DatasetMeta }>;

export class Bench {
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
      const wanted = scenarios.filter((s) => s === 'lists' || s === 'collections' || s === 'headline');
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
            for (const connections of this.headlineConnections()) {
              for (const probe of headlineProbes(dataset.meta)) {
                await this.pair(
                  { group: 'headline', dialect, dataset: size, connections },
                  probe,
                  switchboard,
                  raw,
                  this.settings.durationSeconds,
                );
              }
              await removeWrittenComments(dataset.location, dataset.meta);
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

  /** The headline paths' connection counts (10 and 64 unless given); the largest loads memory and profiles. */
  private headlineConnections(): number[] {
    return this.settings.headlineConnections ?? [this.settings.connections];
  }

  private get heaviestConnections(): number {
    return Math.max(...this.headlineConnections());
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
      result.switchboard.push(await this.measureOn([switchboard], probe.switchboard, duration, identity.connections));
      result.raw.push(await this.measureOn([raw], probe.raw, duration, identity.connections));
    }
    const [sb, rw] = [result.switchboard.at(-1), result.raw.at(-1)];
    const connections = identity.connections === undefined ? '' : ` (${identity.connections} connections)`;
    log(
      `  ${identity.dialect} ${identity.dataset} ${probe.name}${connections}: switchboard ${sb?.requestsPerSecond.toFixed(0)} req/s p99 ${sb?.p99Ms.toFixed(
        2,
      )} ms, raw ${rw?.requestsPerSecond.toFixed(0)} req/s p99 ${rw?.p99Ms.toFixed(2)} ms`,
    );
  }

  /**
   * One measurement; a server that something outside the benchmark ended (before or during it) is
   * started again and the measurement repeated once, with a note.
   */
  private async measureOn(
    servers: BenchServer[],
    request: HttpRequest,
    durationSeconds: number,
    connections = this.settings.connections,
  ): Promise<Measurement> {
    for (let attempt = 0; ; attempt++) {
      for (const server of servers.filter((candidate) => !candidate.alive())) {
        this.note(`${server.kind} (${server.processes[0]?.logFile ?? '?'}) had exited; started again`);
        await server.restart(request.apiKey);
      }
      const measured = await this.measureOnce(servers, request, durationSeconds, connections);
      if (servers.every((server) => server.alive()) || attempt > 0) {
        return measured;
      }
    }
  }

  private measureOnce(
    servers: BenchServer[],
    request: HttpRequest,
    durationSeconds: number,
    connections: number,
  ): Promise<Measurement> {
    const options: LoadOptions = {
      durationSeconds,
      warmupSeconds: this.settings.warmupSeconds,
      connections,
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

  /** A fresh process per server and round, so the peak (VmHWM) is the sustained write load's, at the most connections. */
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
            durationSeconds: this.settings.rssSeconds ?? this.settings.durationSeconds,
            warmupSeconds: 0,
            connections: this.heaviestConnections,
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
        connections: this.heaviestConnections,
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
      connections: this.heaviestConnections,
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
