import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { buildSwitchboard } from './build.js';
import { type BenchDialect, DATA_DIR, type DatasetLocation, databaseUrlFor } from './datasets.js';
import { type HttpRequest, type Measurement, measure } from './load.js';
import { COMMON_OPTIONS, parse, resolveTarget } from './options.js';
import { choosePinning, installCleanup, pinSelf, sleep, statusMiB } from './processes.js';
import { recreatePostgresDatabase } from './seed-db.js';
import { api, type BenchServer, startSwitchboard, switchboardCli, waitUntilAnswering } from './servers.js';

/**
 * `npm run bench:stream`: GET /v1/events/stream holding many connections on one process. On a fresh
 * database per dialect, one Switchboard server (built, started as production starts it) is measured:
 *
 * - the API (comment create, ticket by id; autocannon) with no stream open, then with `--streams`
 *   streams open on another organization (held: heartbeats only), then comment create again with the
 *   streams on the written organization (each comment is sent to every stream);
 * - the time from a comment's POST until every stream has its event (`--samples` times);
 * - the server's resident memory at each step.
 *
 * The streams are read by this process, pinned to its own CPU with autocannon when the machine has two.
 */

const USAGE = `Usage: npm run bench:stream -- [options]
  --dialect sqlite|postgres|both   default: both when PostgreSQL answers at BENCH_DATABASE_URL
  --streams N                      open streams (default 1000)
  --duration S                     seconds per API measurement (default 10)
  --warmup S                       seconds of warm-up before each (default 1)
  --connections N                  autocannon connections (default 10)
  --samples N                      events timed to every stream (default 10)
  --rounds N                       alternations of no stream / streams held (default 2)
  --no-build                       skip npm run build (dist/ must be current)`;

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Organization {
  apiKey: string;
  organizationId: string;
}

interface Options {
  streams: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  samples: number;
  rounds: number;
  serverCpus: string | null;
}

interface DialectResult {
  dialect: BenchDialect;
  baseline: Record<string, Measurement[]>;
  held: Record<string, Measurement[]>;
  fanOut: Measurement;
  /** Events the streams received during the fan-out load, and streams the server dropped as too slow. */
  fanOutDelivered: number;
  fanOutDropped: number;
  /** Per sample: ms from the POST to the first and to the last stream receiving its event. */
  reach: { firstMs: number; allMs: number }[];
  rss: { noStreams: number; heldStreams: number; afterFanOut: number; peak: number };
  openMs: number;
}

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), {
    ...COMMON_OPTIONS,
    streams: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    samples: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  installCleanup();
  const target = await resolveTarget(values);
  if (!values['no-build']) {
    buildSwitchboard(log);
  }
  const pinning = choosePinning();
  pinSelf(pinning.load);
  const options: Options = {
    streams: Number(values.streams),
    durationSeconds: Number(values.duration),
    warmupSeconds: Number(values.warmup),
    connections: Number(values.connections),
    samples: Number(values.samples),
    rounds: Number(values.rounds),
    serverCpus: pinning.server,
  };
  const results: DialectResult[] = [];
  for (const dialect of target.dialects) {
    results.push(await benchDialect(dialect, target.adminUrl, options));
  }
  console.log(report(results, options, target.postgresVersion));
}

async function benchDialect(dialect: BenchDialect, adminUrl: string, options: Options): Promise<DialectResult> {
  log(`${dialect}: fresh database`);
  const databaseName = 'switchboard_bench_stream';
  const location: DatasetLocation = {
    dialect,
    size: '1k',
    dataDir: join(DATA_DIR, `stream-${dialect}`),
    metaFile: join(DATA_DIR, `stream-${dialect}.meta.json`),
    ...(dialect === 'postgres' ? { databaseName, databaseUrl: databaseUrlFor(adminUrl, databaseName) } : {}),
  };
  rmSync(location.dataDir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    await recreatePostgresDatabase(adminUrl, databaseName);
  }
  const load = await createOrganization(location, 'Load', 'admin@load.test');
  const quiet = await createOrganization(location, 'Quiet', 'admin@quiet.test');
  const server = await startSwitchboard(location, { cpus: options.serverCpus, logLevel: 'warn', label: `stream-${dialect}` });
  try {
    await waitUntilAnswering(server, load.apiKey);
    const pid = server.processes[0]?.pid ?? 0;
    const ticket = await makeTicket(server, load);
    const probes: Record<string, HttpRequest> = {
      'comment create': {
        method: 'POST',
        path: `/v1/tickets/${ticket}/comment`,
        apiKey: load.apiKey,
        body: { content: 'Thanks, that fixed it. Closing the ticket on our side.' },
        expect: 201,
      },
      'ticket by id': { method: 'GET', path: `/v1/tickets/${ticket}`, apiKey: load.apiKey, expect: 200 },
    };
    const run = async (probe: HttpRequest) => {
      const measured = await measure([server.baseUrl], probe, {
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        connections: options.connections,
        cpuPids: async () => ({ server: [pid], database: [] }),
      });
      log(`  ${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.p99Ms.toFixed(1)} ms, ${measured.failed} failed`);
      return measured;
    };

    log(`${dialect}: warming up`);
    for (const probe of Object.values(probes)) {
      await measure([server.baseUrl], probe, {
        durationSeconds: 2,
        warmupSeconds: 0,
        connections: options.connections,
        cpuPids: async () => ({ server: [pid], database: [] }),
      });
    }
    // Alternated, so that what changes over a run (the comments table grows, the process warms) falls on both.
    const baseline: Record<string, Measurement[]> = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
    const heldResults: Record<string, Measurement[]> = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
    let rssNoStreams = 0;
    let rssHeld = 0;
    let openMs = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const [name, probe] of Object.entries(probes)) {
        log(`${dialect}: round ${round}, ${name}, no stream open`);
        baseline[name]?.push(await run(probe));
      }
      rssNoStreams = statusMiB(pid, 'VmRSS');
      log(`${dialect}: round ${round}, opening ${options.streams} streams on another organization`);
      const opening = performance.now();
      const held = await openStreams(server.baseUrl, quiet.apiKey, options.streams);
      openMs = performance.now() - opening;
      await sleep(1_000);
      rssHeld = statusMiB(pid, 'VmRSS');
      for (const [name, probe] of Object.entries(probes)) {
        log(`${dialect}: round ${round}, ${name}, ${options.streams} streams held`);
        heldResults[name]?.push(await run(probe));
      }
      closeAll(held);
      await sleep(1_000);
    }

    log(`${dialect}: ${options.streams} streams on the written organization`);
    const streams = await openStreams(server.baseUrl, load.apiKey, options.streams);
    const reach = await timeReach(server, load, ticket, streams, options.samples);
    log(`${dialect}: comment create, each comment sent to ${options.streams} streams`);
    for (const stream of streams) {
      stream.parsing = false;
    }
    const before = streams.reduce((sum, stream) => sum + stream.received, 0);
    const fanOut = await run(probes['comment create'] as HttpRequest);
    // What is still on its way arrives within a few watch intervals.
    await sleep(2_000);
    const fanOutDelivered = streams.reduce((sum, stream) => sum + stream.received, 0) - before;
    const fanOutDropped = streams.filter((stream) => stream.ended).length;
    const rssAfterFanOut = statusMiB(pid, 'VmRSS');
    const peak = statusMiB(pid, 'VmHWM');
    closeAll(streams);
    return {
      dialect,
      baseline,
      held: heldResults,
      fanOut,
      fanOutDelivered,
      fanOutDropped,
      reach,
      rss: { noStreams: rssNoStreams, heldStreams: rssHeld, afterFanOut: rssAfterFanOut, peak },
      openMs,
    };
  } finally {
    await server.stop();
  }
}

async function createOrganization(location: DatasetLocation, name: string, email: string): Promise<Organization> {
  const out = await switchboardCli(location, ['orgs', 'create', '--name', name, '--admin-email', email, '--json']);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Organization;
}

async function makeTicket(server: BenchServer, organization: Organization): Promise<string> {
  const team = await api<{ data: { id: string } }>(server, organization.apiKey, 'POST', '/v1/teams', {
    name: 'Bench',
    identifier: 'BEN',
  });
  const ticket = await api<{ data: { id: string } }>(server, organization.apiKey, 'POST', '/v1/tickets', {
    title: 'Printer on fire',
    requestorEmail: 'customer@bench.test',
    teamId: team.data.id,
  });
  return ticket.data.id;
}

/** One stream as a client reads it: events counted, and (while `parsing`) their ids timed. */
interface StreamClient {
  received: number;
  /** When each event id arrived (ms, performance.now()), while `parsing`. */
  arrivals: Map<string, number>;
  parsing: boolean;
  ended: boolean;
  close(): void;
}

/** Opens `count` streams, a few at a time, each on a connection of its own; resolves once all said `ready`. */
async function openStreams(baseUrl: string, apiKey: string, count: number): Promise<StreamClient[]> {
  const streams: StreamClient[] = [];
  const batch = 50;
  for (let start = 0; start < count; start += batch) {
    const opened = await Promise.all(Array.from({ length: Math.min(batch, count - start) }, () => openStream(baseUrl, apiKey)));
    streams.push(...opened);
  }
  return streams;
}

function openStream(baseUrl: string, apiKey: string): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}/v1/events/stream`, { agent: false, headers: { 'x-api-key': apiKey } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream answered ${response.statusCode}`));
        response.resume();
        return;
      }
      const client: StreamClient = {
        received: 0,
        arrivals: new Map(),
        parsing: true,
        ended: false,
        close: () => outgoing.destroy(),
      };
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === 'ready') {
            resolve(client);
          } else if (event.id) {
            client.arrivals.set(event.id, performance.now());
          }
        },
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        client.received += countEvents(chunk);
        if (client.parsing) {
          parser.feed(chunk);
        }
      });
      response.on('close', () => {
        client.ended = true;
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Events in a chunk, without parsing it: each starts with an `id:` line (ready's included once). */
function countEvents(chunk: string): number {
  let count = 0;
  for (let at = chunk.indexOf('\nevent: '); at !== -1; at = chunk.indexOf('\nevent: ', at + 1)) {
    count++;
  }
  return count;
}

function closeAll(streams: readonly StreamClient[]): void {
  for (const stream of streams) {
    stream.close();
  }
}

/**
 * Posts a comment `samples` times, 0.3 to 0.8 s apart at random (a fixed spacing could keep every
 * sample at the same point of the watcher's interval), timing its event's arrival on every stream.
 */
async function timeReach(
  server: BenchServer,
  organization: Organization,
  ticket: string,
  streams: readonly StreamClient[],
  samples: number,
): Promise<{ firstMs: number; allMs: number }[]> {
  const reach: { firstMs: number; allMs: number }[] = [];
  for (let sample = 0; sample < samples; sample++) {
    await sleep(300 + Math.random() * 500);
    const started = performance.now();
    await api(server, organization.apiKey, 'POST', `/v1/tickets/${ticket}/comment`, { content: `Sample ${sample}` });
    const page = await api<{ data: { id: string }[] }>(server, organization.apiKey, 'GET', '/v1/events?limit=1');
    const id = page.data[0]?.id ?? '';
    const deadline = started + 30_000;
    while (streams.some((stream) => !stream.arrivals.has(id)) && performance.now() < deadline) {
      await sleep(5);
    }
    const times = streams.map((stream) => stream.arrivals.get(id) ?? Number.NaN);
    reach.push({ firstMs: Math.min(...times) - started, allMs: Math.max(...times) - started });
  }
  return reach;
}

function report(results: DialectResult[], options: Options, postgresVersion: string | null): string {
  const lines = [
    `## Event stream: ${options.streams} streams on one process`,
    '',
    `\`npm run bench:stream\`, ${new Date().toISOString()}; API measured with autocannon (${options.connections} connections, ` +
      `${options.durationSeconds} s after ${options.warmupSeconds} s of warm-up; req/s and p99 are means of ${options.rounds} ` +
      'alternated rounds); EVENT_WATCH_INTERVAL_MS and EVENT_STREAM_HEARTBEAT_MS at their defaults (250, 15000).' +
      (postgresVersion ? ` ${postgresVersion.split(',')[0]}.` : ''),
    '',
    `| | ${results.map((result) => result.dialect).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
  ];
  const row = (label: string, cell: (result: DialectResult) => string) =>
    lines.push(`| ${label} | ${results.map(cell).join(' | ')} |`);
  const mean = (
    measurements: Measurement[] | Measurement | undefined,
    field: 'requestsPerSecond' | 'p99Ms' | 'cpuMsPerRequest' = 'requestsPerSecond',
  ) => {
    const all = measurements === undefined ? [] : Array.isArray(measurements) ? measurements : [measurements];
    return all.reduce((sum, measurement) => sum + measurement[field], 0) / all.length;
  };
  const rate = (measurements: Measurement[] | Measurement | undefined) => `${Math.round(mean(measurements))}`;
  const ratio = (with_: Measurement[] | Measurement | undefined, without: Measurement[] | Measurement | undefined) =>
    `${(mean(with_) / mean(without)).toFixed(2)}×`;
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  for (const name of ['ticket by id', 'comment create']) {
    row(`${name}, req/s, no stream`, (result) => rate(result.baseline[name]));
    row(`${name}, req/s, ${options.streams} streams held`, (result) => rate(result.held[name]));
    row(`${name}: held / none`, (result) => ratio(result.held[name], result.baseline[name]));
    row(
      `${name}, server CPU ms per request, none → held`,
      (result) =>
        `${mean(result.baseline[name], 'cpuMsPerRequest').toFixed(3)} → ${mean(result.held[name], 'cpuMsPerRequest').toFixed(3)}`,
    );
    row(
      `${name}, p99 ms, none → held`,
      (result) => `${mean(result.baseline[name], 'p99Ms').toFixed(1)} → ${mean(result.held[name], 'p99Ms').toFixed(1)}`,
    );
  }
  row(`comment create, req/s, each comment sent to ${options.streams} streams`, (result) => rate(result.fanOut));
  row('… against no stream', (result) => ratio(result.fanOut, result.baseline['comment create']));
  row(
    '… server CPU ms per request (fan-out included); server busy',
    (result) =>
      `${result.fanOut.cpuMsPerRequest.toFixed(3)}; ${((result.fanOut.cpuMsPerRequest * result.fanOut.requestsPerSecond) / 10).toFixed(0)}%`,
  );
  row(
    '… events delivered (all streams), per second',
    (result) => `${Math.round(result.fanOutDelivered / result.fanOut.seconds).toLocaleString('en')}`,
  );
  row('… streams dropped as too slow', (result) => String(result.fanOutDropped));
  row(`event reaches all ${options.streams} streams, ms (median; max)`, (result) => {
    const all = result.reach.map((sample) => sample.allMs);
    return `${median(all).toFixed(0)}; ${Math.max(...all).toFixed(0)}`;
  });
  row('… reaches the first stream, ms (median)', (result) => median(result.reach.map((sample) => sample.firstMs)).toFixed(0));
  row(`opening ${options.streams} streams (50 at a time), ms`, (result) => result.openMs.toFixed(0));
  row(
    'RSS MiB: no stream → held → after fan-out (peak)',
    (result) =>
      `${result.rss.noStreams.toFixed(0)} → ${result.rss.heldStreams.toFixed(0)} → ${result.rss.afterFanOut.toFixed(0)} (${result.rss.peak.toFixed(0)})`,
  );
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
