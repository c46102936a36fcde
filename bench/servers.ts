import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR, DATA_DIR, type DatasetLocation, REPO_DIR, sqliteFile, switchboardEnv } from './datasets.js';
import { freePort, type StartedProcess, sleep, startProcess } from './processes.js';

const run = promisify(execFile);

export type ServerKind = 'switchboard' | 'raw';

export interface BenchServer {
  kind: ServerKind;
  /** Changes when the server is started again (a new free port). */
  baseUrl: string;
  processes: StartedProcess[];
  /** PostgreSQL `application_name` of its connections, to find their backends' CPU time. */
  applicationName?: string;
  alive(): boolean;
  /** Starts it again (after something outside the benchmark ended it) and waits until it answers. */
  restart(apiKey: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** CPU list for taskset, or null. */
  cpus: string | null;
  /** Switchboard's LOG_LEVEL; the raw baseline does not log (`rawLogLevel`). */
  logLevel: string;
  /** The raw baseline's, 'silent' unless set: the lean baseline logs nothing. */
  rawLogLevel?: string;
  /** Extra node flags (e.g. --cpu-prof) put before the script. */
  nodeFlags?: string[];
  /** A label for log files and application names, unique among running servers. */
  label: string;
  /** Settings beyond the dataset's (e.g. SITE_CACHE_MAX_PAGES=0). */
  env?: Record<string, string>;
}

/** `node bin/switchboard.js serve` on a dataset, as production starts it (after `npm run build`). */
export function startSwitchboard(location: DatasetLocation, options: ServerOptions): Promise<BenchServer> {
  const applicationName = location.databaseName ? `bench_${options.label}` : undefined;
  return managed('switchboard', applicationName, async (attempt) => {
    const port = await freePort();
    const started = startProcess({
      name: `switchboard ${options.label}`,
      command: process.execPath,
      args: [...(options.nodeFlags ?? []), join(REPO_DIR, 'bin/switchboard.js'), 'serve'],
      env: { ...switchboardEnv(location, { port, logLevel: options.logLevel, applicationName }), ...options.env },
      cwd: REPO_DIR,
      cpus: options.cpus,
      logFile: logFile(options.label, attempt),
    });
    return { port, started };
  });
}

/** The raw baseline (bench/raw-server.mjs): plain node, no build, no loader. */
export function startRaw(location: DatasetLocation, options: ServerOptions): Promise<BenchServer> {
  const applicationName = location.databaseName ? `bench_${options.label}` : undefined;
  return managed('raw', applicationName, async (attempt) => {
    const port = await freePort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      TZ: 'UTC',
      PORT: String(port),
      LOG_LEVEL: options.rawLogLevel ?? 'silent',
    };
    if (location.databaseUrl) {
      const url = new URL(location.databaseUrl);
      if (applicationName) {
        url.searchParams.set('application_name', applicationName);
      }
      env.DATABASE_URL = url.toString();
    } else {
      env.SQLITE_FILE = sqliteFile(location);
    }
    const started = startProcess({
      name: `raw ${options.label}`,
      command: process.execPath,
      args: [...(options.nodeFlags ?? []), join(BENCH_DIR, 'raw-server.mjs')],
      env,
      cwd: REPO_DIR,
      cpus: options.cpus,
      logFile: logFile(options.label, attempt),
    });
    return { port, started };
  });
}

/**
 * The static-file baseline (bench/static-server.mjs): Fastify + @fastify/static over `root`. The
 * runner's readiness and drain checks ask for `/v1/users/me`, so `root` holds a file at that path.
 */
export function startStaticFiles(root: string, options: ServerOptions): Promise<BenchServer> {
  return managed('raw', undefined, async (attempt) => {
    const port = await freePort();
    const started = startProcess({
      name: `static ${options.label}`,
      command: process.execPath,
      args: [...(options.nodeFlags ?? []), join(BENCH_DIR, 'static-server.mjs')],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        TZ: 'UTC',
        PORT: String(port),
        LOG_LEVEL: options.logLevel,
        STATIC_ROOT: root,
      },
      cwd: REPO_DIR,
      cpus: options.cpus,
      logFile: logFile(options.label, attempt),
    });
    return { port, started };
  });
}

const logFile = (label: string, attempt: number) =>
  join(DATA_DIR, 'logs', `${label}${attempt > 0 ? `-restart${attempt}` : ''}.log`);

async function managed(
  kind: ServerKind,
  applicationName: string | undefined,
  launch: (attempt: number) => Promise<{ port: number; started: StartedProcess }>,
): Promise<BenchServer> {
  let attempt = 0;
  const first = await launch(attempt);
  const target: BenchServer = {
    kind,
    baseUrl: `http://127.0.0.1:${first.port}`,
    processes: [first.started],
    applicationName,
    alive: () => target.processes.every((started) => started.child.exitCode === null && started.child.signalCode === null),
    restart: async (apiKey) => {
      await target.stop();
      const next = await launch(++attempt);
      target.baseUrl = `http://127.0.0.1:${next.port}`;
      target.processes = [next.started];
      await waitUntilAnswering(target, apiKey);
    },
    stop: async () => {
      await Promise.all(target.processes.map((started) => started.stop()));
    },
  };
  return target;
}

/**
 * Polls `GET /v1/users/me` with the key every `intervalMs` until it answers 200; returns the time
 * from `since` (ms, performance.now()). Fails when the process exits or `timeoutMs` passes.
 */
export async function waitUntilAnswering(
  target: BenchServer,
  apiKey: string,
  options: { since?: number; intervalMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const since = options.since ?? performance.now();
  const deadline = since + (options.timeoutMs ?? 300_000);
  let exited = false;
  for (const started of target.processes) {
    started.exited.then(() => {
      exited = true;
    });
  }
  while (performance.now() < deadline) {
    if (exited) {
      throw new Error(`${target.kind} exited before answering; see ${target.processes.map((p) => p.logFile).join(', ')}`);
    }
    try {
      const response = await fetch(`${target.baseUrl}/v1/users/me`, {
        headers: { 'x-api-key': apiKey },
        signal: AbortSignal.timeout(5_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) {
        return performance.now() - since;
      }
      if (response.status !== 503) {
        throw new Error(`${target.kind} answered ${response.status} to GET /v1/users/me`);
      }
    } catch (error) {
      if (error instanceof Error && error.message.includes('answered')) {
        throw error;
      }
    }
    await sleep(options.intervalMs ?? 10);
  }
  throw new Error(`${target.kind} did not answer within ${options.timeoutMs ?? 300_000} ms`);
}

/** Runs a Switchboard CLI command on a dataset and returns its standard output. */
export async function switchboardCli(location: DatasetLocation, args: string[]): Promise<string> {
  const env = switchboardEnv(location, { port: 0, logLevel: 'warn' });
  const { stdout } = await run(process.execPath, [join(REPO_DIR, 'bin/switchboard.js'), ...args], {
    cwd: REPO_DIR,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** A JSON request to a running server; throws unless the status is the expected one. */
export async function api<T>(
  target: Pick<BenchServer, 'baseUrl'>,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  expected: number[] = [200, 201],
): Promise<T> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}
