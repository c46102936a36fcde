import autocannon from 'autocannon';
import { sleep, totalCpuMillis } from './processes.js';

/** One request, repeated by every connection for the whole measurement. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  /** When given, the requests cycle through these paths (all connections together) instead of `path`. */
  paths?: readonly string[];
  apiKey: string;
  body?: unknown;
  /** The status a successful answer has (200, or 201 for a create). */
  expect: number;
}

export interface LoadOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Processes whose CPU time the requests cost: the server's, and its database's when separate. */
  cpuPids: () => Promise<{ server: number[]; database: number[] }>;
  /**
   * Processes that must be idle before the load starts: every server of the dataset and their
   * database backends, the one not measured included (see `untilQuiet`).
   */
  quietPids?: () => Promise<number[]>;
}

export interface Measurement {
  /** Answers with the expected status. */
  ok: number;
  /** Other answers (wrong status), connection errors and timeouts. */
  failed: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server process CPU (user + system) per answered request. */
  cpuMsPerRequest: number;
  /** PostgreSQL backends' CPU per answered request (SQLite: in the server's own). */
  dbCpuMsPerRequest: number | null;
  /** A non-expected status seen, for the report. */
  firstFailure?: string;
  /** Connections of the load (as many requests may still have been running when it stopped). */
  connections?: number;
}

/**
 * Drives `request` at `baseUrl` with autocannon from this process (pinned to its own CPU by the
 * runner): a warm-up first, then the measured run. Latencies are taken from each response event
 * in fractional milliseconds (autocannon's own histogram keeps whole milliseconds).
 */
export async function measure(baseUrls: string[], request: HttpRequest, options: LoadOptions): Promise<Measurement> {
  if (options.quietPids) {
    await untilQuiet(options.quietPids);
  }
  if (options.warmupSeconds > 0) {
    await Promise.all(
      baseUrls.map((baseUrl) => fire(baseUrl, request, options.warmupSeconds, options.connections / baseUrls.length)),
    );
    await drain(baseUrls, request.apiKey);
    if (options.quietPids) {
      await untilQuiet(options.quietPids);
    }
  }
  const before = await options.cpuPids();
  const cpuBefore = totalCpuMillis(before.server);
  const dbBefore = totalCpuMillis(before.database);
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const results = await Promise.all(
    baseUrls.map((baseUrl) =>
      fire(baseUrl, request, options.durationSeconds, options.connections / baseUrls.length, (status, ms) => {
        if (status === request.expect) {
          latencies.push(ms);
        } else {
          failed++;
          firstFailure ??= `status ${status}`;
        }
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await options.cpuPids();
  await drain(baseUrls, request.apiKey);
  // A backend that appeared during the run counts from zero; one that ended is lost (rare: pools keep them).
  const database = [...new Set([...before.database, ...after.database])];
  const dbCpu = totalCpuMillis(database) - dbBefore;
  const cpu = totalCpuMillis(before.server) - cpuBefore;
  for (const result of results) {
    failed += result.errors + result.timeouts;
    if (result.errors > 0) {
      firstFailure ??= `${result.errors} connection errors`;
    }
  }
  latencies.sort((a, b) => a - b);
  const answered = Math.max(1, latencies.length + failed);
  return {
    ok: latencies.length,
    failed,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuMsPerRequest: cpu / answered,
    dbCpuMsPerRequest: before.database.length + after.database.length > 0 ? dbCpu / answered : null,
    firstFailure,
    connections: options.connections,
  };
}

/** Fewer answers than this in a measurement: its p99 is a lower bound (slower requests were still running). */
export const FEW_ANSWERS = 20;

/**
 * Waits until each server has worked off what the load left queued (requests whose connections
 * autocannon closed are still served): a cheap request answered quickly means the queue is empty.
 * Without it, the backlog of a slow path would eat into the next measurement, on the same CPU.
 */
export async function drain(baseUrls: string[], apiKey: string, budgetMs = 600_000): Promise<void> {
  const deadline = performance.now() + budgetMs;
  for (const baseUrl of baseUrls) {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/v1/users/me`, {
          headers: { 'x-api-key': apiKey },
          signal: AbortSignal.timeout(Math.max(1, deadline - started)),
        });
        await response.arrayBuffer();
      } catch {
        return;
      }
      if (performance.now() - started < 100) {
        break;
      }
    }
  }
}

const QUIET_WINDOW_MS = 250;
/** Share of one CPU under which the watched processes count as idle (background workers stay below). */
const QUIET_SHARE = 0.1;

/**
 * Waits until the watched processes use next to no CPU. `drain` empties a server's own queue, but on
 * PostgreSQL the queries of requests already answered to nobody keep running in their backends
 * (a deep page by OFFSET runs for seconds), and the other server's backlog is not drained at all:
 * left alone, that work takes CPU from the next measurement, whichever server it measures.
 */
export async function untilQuiet(pids: () => Promise<number[]>, budgetMs = 120_000): Promise<void> {
  const deadline = performance.now() + budgetMs;
  while (performance.now() < deadline) {
    const watched = await pids();
    const before = totalCpuMillis(watched);
    await sleep(QUIET_WINDOW_MS);
    if (totalCpuMillis(watched) - before <= QUIET_WINDOW_MS * QUIET_SHARE) {
      return;
    }
  }
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

function fire(
  baseUrl: string,
  request: HttpRequest,
  durationSeconds: number,
  connections: number,
  onResponse?: (status: number, ms: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${request.path}`,
        method: request.method,
        headers: {
          'x-api-key': request.apiKey,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        ...(request.paths && request.paths.length > 0 ? { requests: [cycling(request.paths)] } : {}),
        connections: Math.max(1, Math.round(connections)),
        duration: durationSeconds,
        // Deep OFFSET pages can take seconds each; they count as slow, not as failed.
        timeout: 60,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => onResponse(statusCode, responseTime));
    }
  });
}

/** One request whose path is the next of `paths` each time a connection sends it. */
function cycling(paths: readonly string[]): autocannon.Request {
  let next = 0;
  return {
    setupRequest: (request) => {
      const path = paths[next % paths.length] as string;
      next++;
      return { ...request, path };
    },
  };
}
