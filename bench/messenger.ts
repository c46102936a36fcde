import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildSwitchboard } from './build.js';
import { type BenchDialect, DATA_DIR, type DatasetLocation, databaseUrlFor, REPO_DIR } from './datasets.js';
import {
  type ChatConversation,
  closePanels,
  createOrganization,
  enableWidget,
  handedOffConversations,
  type Messenger,
  openPanels,
  type Panel,
  type ServedSize,
  servedSizes,
} from './messenger-panels.js';
import { COMMON_OPTIONS, parse, resolveTarget } from './options.js';
import { choosePinning, installCleanup, pinSelf, sleep, statusMiB } from './processes.js';
import { recreatePostgresDatabase } from './seed-db.js';
import { api, type BenchServer, startSwitchboard, waitUntilAnswering } from './servers.js';

/**
 * `npm run bench:messenger` (issue 34, Deliver 6): the messenger's sizes and its live streams.
 *
 * - The loader (`/widget.js`) and the panel (`/widget-assets/panel.js` + `panel.css`) as one server
 *   sends them gzipped, against their budgets (10 kB and 60 kB).
 * - On a fresh database per dialect, one Switchboard process (built, started as production starts
 *   it) holds `--panels` open panels, each a `GET /widget/{slug}/api/conversations/{id}/events`
 *   stream of a handed-off conversation, laid out as `--tabs` panels per conversation (a visitor
 *   with several tabs open). A person's public reply (`POST /v1/tickets/{id}/comment`) is timed
 *   until every panel of that visitor has its `message` event, `--samples` times over different
 *   conversations; the server's resident memory is read before, with all panels open, and after.
 * - On PostgreSQL, each layout again with the replies written by a second process on the same
 *   database (several processes behind a load balancer): the panels' process hears of them from
 *   the writer's notification, not from its own write.
 *
 * The streams are read by this process, pinned to its own CPU when the machine has two.
 */

const USAGE = `Usage: npm run bench:messenger -- [options]
  --dialect sqlite|postgres|both   default: both when PostgreSQL answers at BENCH_DATABASE_URL
  --panels N                       open panels (default 1000)
  --tabs A,B                       layouts measured in turn: panels per conversation (default 4,1:
                                   1000 panels over 250 conversations, then over 1000)
  --samples N                      replies timed per layout (default 50)
  --watch-interval MS              the server's EVENT_WATCH_INTERVAL_MS (default: its own, 250)
  --no-build                       skip npm run build (dist/ must be current)`;

const LOADER_BUDGET_BYTES = 10 * 1024;
const PANEL_BUDGET_BYTES = 60 * 1024;
const REACH_TARGET_MS = 250;
const RSS_TARGET_MIB = 300;
/** A reply that has not reached a panel by then is counted as missed. */
const REACH_TIMEOUT_MS = 10_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Options {
  panels: number;
  tabs: number[];
  samples: number;
  /** EVENT_WATCH_INTERVAL_MS given to the server, or null for its default. */
  watchIntervalMs: number | null;
  serverCpus: string | null;
}

/** One reply: ms from its POST to its answer, to the first and to the last of its visitor's panels. */
interface Reach {
  /** When it was sent, ms after the first reply of its layout (to line slow ones up with the heartbeats). */
  atMs: number;
  postMs: number;
  firstMs: number;
  allMs: number;
  /** Panels of the visitor it never reached within REACH_TIMEOUT_MS. */
  missed: number;
}

/** Which process the replies are POSTed to: the one holding the panels, or another on the same database. */
type Writer = 'same' | 'another';

interface LayoutResult {
  tabs: number;
  writer: Writer;
  conversations: number;
  openSeconds: number;
  reach: Reach[];
  /** Replies that reached a panel of another visitor's conversation (must be 0). */
  strayMessages: number;
  /** Panels whose stream ended while they were held. */
  dropped: number;
  rss: { held: number; afterReplies: number };
}

interface DialectResult {
  dialect: BenchDialect;
  setupSeconds: number;
  rssBeforePanels: number;
  rssPeak: number;
  layouts: LayoutResult[];
}

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), {
    ...COMMON_OPTIONS,
    panels: { type: 'string', default: '1000' },
    tabs: { type: 'string', default: '4,1' },
    samples: { type: 'string', default: '50' },
    'watch-interval': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const options: Options = {
    panels: wholeNumber('--panels', values.panels),
    tabs: values.tabs.split(',').map((tabs) => wholeNumber('--tabs', tabs.trim())),
    samples: wholeNumber('--samples', values.samples),
    watchIntervalMs: values['watch-interval'] === undefined ? null : wholeNumber('--watch-interval', values['watch-interval']),
    serverCpus: null,
  };
  for (const tabs of options.tabs) {
    if (options.panels % tabs !== 0) {
      throw new Error(`--panels (${options.panels}) must be a multiple of each --tabs (${tabs})`);
    }
  }
  installCleanup();
  // Read before this process is pinned to one CPU, which is all availableParallelism() sees after.
  const cpus = availableParallelism();
  const target = await resolveTarget(values);
  if (!values['no-build']) {
    buildSwitchboard(log);
  }
  const pinning = choosePinning();
  pinSelf(pinning.load);
  options.serverCpus = pinning.server;
  const loadAtStart = loadavg();
  const startedAt = new Date().toISOString();
  let sizes: ServedSize[] = [];
  const results: DialectResult[] = [];
  for (const dialect of target.dialects) {
    const measured = await benchDialect(dialect, target.adminUrl, options);
    sizes = measured.sizes;
    results.push(measured.result);
  }
  const machine = describeMachine(cpus, target.postgresVersion, loadAtStart, pinning.server !== null);
  console.log(report({ results, sizes, options, startedAt, machine, command: commandOf(process.argv.slice(2)) }));
  // Every sample, to look at the slow ones afterwards.
  const saved = join(DATA_DIR, `messenger-${startedAt.replaceAll(':', '-')}.json`);
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(saved, JSON.stringify({ startedAt, options, machine, sizes, results }, null, 2));
  log(`samples written to ${saved}`);
}

function wholeNumber(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new Error(`${name} must be a whole number of at least 1, not ${value}`);
  }
  return number;
}

async function benchDialect(
  dialect: BenchDialect,
  adminUrl: string,
  options: Options,
): Promise<{ result: DialectResult; sizes: ServedSize[] }> {
  log(`${dialect}: fresh database`);
  const databaseName = 'switchboard_bench_messenger';
  const location: DatasetLocation = {
    dialect,
    size: '1k',
    dataDir: join(DATA_DIR, `messenger-${dialect}`),
    metaFile: join(DATA_DIR, `messenger-${dialect}.meta.json`),
    ...(dialect === 'postgres' ? { databaseName, databaseUrl: databaseUrlFor(adminUrl, databaseName) } : {}),
  };
  rmSync(location.dataDir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    await recreatePostgresDatabase(adminUrl, databaseName);
  }
  const organization = await createOrganization(location);
  const serverOptions = (label: string) => ({
    cpus: options.serverCpus,
    logLevel: 'warn',
    label,
    // Every visitor comes from 127.0.0.1 here: the per-address limit on new visitors is off (0).
    env: {
      MESSENGER_VISITORS_PER_ADDRESS: '0',
      ...(options.watchIntervalMs === null ? {} : { EVENT_WATCH_INTERVAL_MS: String(options.watchIntervalMs) }),
    },
  });
  const server = await startSwitchboard(location, serverOptions(`messenger-${dialect}`));
  // SQLite is served by one process; PostgreSQL by as many as wanted.
  const writer = dialect === 'postgres' ? await startSwitchboard(location, serverOptions(`messenger-${dialect}-writer`)) : null;
  try {
    await waitUntilAnswering(server, organization.apiKey);
    if (writer) {
      await waitUntilAnswering(writer, organization.apiKey);
    }
    const pid = server.processes[0]?.pid ?? 0;
    const sizes = await servedSizes(server);
    const messenger = await enableWidget(server, organization);
    const most = Math.max(...options.tabs.map((tabs) => options.panels / tabs));
    log(`${dialect}: ${most} visitors, each with a handed-off conversation`);
    const settingUp = performance.now();
    const conversations = await handedOffConversations(server, messenger.slug, most);
    const setupSeconds = (performance.now() - settingUp) / 1000;
    await sleep(1_000);
    const rssBeforePanels = statusMiB(pid, 'VmRSS');
    const layouts: LayoutResult[] = [];
    for (const tabs of options.tabs) {
      const used = conversations.slice(0, options.panels / tabs);
      const layout = { dialect, server, pid, messenger, conversations: used, tabs, samples: options.samples };
      layouts.push(await benchLayout({ ...layout, writer: server }));
      if (writer) {
        layouts.push(await benchLayout({ ...layout, writer }));
      }
    }
    const result = { dialect, setupSeconds, rssBeforePanels, rssPeak: statusMiB(pid, 'VmHWM'), layouts };
    return { result, sizes };
  } finally {
    await Promise.all([server.stop(), writer?.stop()]);
  }
}

interface Layout {
  dialect: BenchDialect;
  server: BenchServer;
  pid: number;
  messenger: Messenger;
  conversations: ChatConversation[];
  tabs: number;
  samples: number;
  /** Where the replies are POSTed: `server` (which holds the panels) or another process. */
  writer: BenchServer;
}

async function benchLayout(layout: Layout): Promise<LayoutResult> {
  const { dialect, server, pid, messenger, conversations, tabs } = layout;
  const writer: Writer = layout.writer === server ? 'same' : 'another';
  log(
    `${dialect}: opening ${conversations.length * tabs} panels, ${tabs} per conversation; replies from ${writer === 'same' ? 'their' : 'another'} process`,
  );
  const opening = performance.now();
  const panels = await openPanels(server, messenger.slug, conversations, tabs);
  const openSeconds = (performance.now() - opening) / 1000;
  try {
    await sleep(1_000);
    const held = statusMiB(pid, 'VmRSS');
    log(`${dialect}: ${layout.samples} replies, each timed to its visitor's ${tabs} panel(s)`);
    // One reply first, untimed: the first comment of a process runs code paths no request has compiled yet (about 1 s).
    const last = conversations.slice(-1);
    const warmUp = await timeReplies(layout.writer, messenger, last, panels, 1);
    const { reach, conversationOfReply } = await timeReplies(layout.writer, messenger, conversations, panels, layout.samples);
    for (const [id, conversationId] of warmUp.conversationOfReply) {
      conversationOfReply.set(id, conversationId);
    }
    await sleep(1_000);
    const afterReplies = statusMiB(pid, 'VmRSS');
    const strayMessages = panels.reduce(
      (sum, panel) =>
        sum + [...panel.arrivals.keys()].filter((id) => conversationOfReply.get(id) !== panel.conversation.conversationId).length,
      0,
    );
    const dropped = panels.filter((panel) => panel.ended).length;
    const all = reach.map((sample) => sample.allMs);
    log(`  reply → all panels: p50 ${percentile(all, 0.5).toFixed(0)} ms, max ${Math.max(...all).toFixed(0)} ms`);
    return {
      tabs,
      writer,
      conversations: conversations.length,
      openSeconds,
      reach,
      strayMessages,
      dropped,
      rss: { held, afterReplies },
    };
  } finally {
    closePanels(panels);
    await sleep(1_000);
  }
}

/**
 * A person's public reply (emailed if the visitor were away, as the console sends it) to `samples`
 * conversations spread over the layout's, 0.3 to 0.8 s apart at random (a fixed spacing could keep
 * every sample at the same point of the event watcher's interval), each timed until every panel of
 * its conversation has the message.
 */
async function timeReplies(
  server: BenchServer,
  messenger: Messenger,
  conversations: readonly ChatConversation[],
  panels: readonly Panel[],
  samples: number,
): Promise<{ reach: Reach[]; conversationOfReply: Map<string, string> }> {
  const { apiKey } = messenger.organization;
  const reach: Reach[] = [];
  const conversationOfReply = new Map<string, string>();
  let first: number | undefined;
  for (let sample = 0; sample < samples; sample++) {
    const conversation = conversations[Math.floor((sample * conversations.length) / samples)] as ChatConversation;
    const tabs = panels.filter((panel) => panel.conversation === conversation);
    const ticket = await api<{ data: { id: string } }>(server, apiKey, 'GET', `/v1/tickets/${conversation.ticket}`);
    await sleep(300 + Math.random() * 500);
    const started = performance.now();
    first ??= started;
    const comment = await api<{ data: { id: string } }>(server, apiKey, 'POST', `/v1/tickets/${ticket.data.id}/comment`, {
      content: `Reply ${sample + 1}: thanks for waiting, I have looked into it.`,
      shouldSendEmail: true,
    });
    const postMs = performance.now() - started;
    const id = comment.data.id;
    conversationOfReply.set(id, conversation.conversationId);
    const deadline = started + REACH_TIMEOUT_MS;
    while (tabs.some((panel) => !panel.arrivals.has(id)) && performance.now() < deadline) {
      await sleep(2);
    }
    const times = tabs.map((panel) => panel.arrivals.get(id)).filter((time): time is number => time !== undefined);
    const missed = tabs.length - times.length;
    reach.push({
      atMs: started - first,
      postMs,
      firstMs: times.length > 0 ? Math.min(...times) - started : Number.NaN,
      allMs: missed === 0 ? Math.max(...times) - started : Number.NaN,
      missed,
    });
  }
  return { reach, conversationOfReply };
}

/** Nearest rank: of 50 samples, p99 is the largest (rank 50) and p50 the 25th. */
function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

function commandOf(args: string[]): string {
  return `npm run bench:messenger${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`;
}

function describeMachine(cpus: number, postgresVersion: string | null, load: number[], pinned: boolean): string {
  const model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_DIR, encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the commit stays unknown.
  }
  return (
    `${cpus} × ${model}, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}` +
    `${postgresVersion ? `, ${postgresVersion.split(',')[0]}` : ''}; commit ${commit}; load average at the start ` +
    `${load.map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min)` +
    (pinned ? '; server on CPU 0, this process (the panels) on CPU 1' : '; nothing pinned')
  );
}

interface Report {
  results: DialectResult[];
  sizes: ServedSize[];
  options: Options;
  startedAt: string;
  machine: string;
  command: string;
}

function report({ results, sizes, options, startedAt, machine, command }: Report): string {
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const sizeOf = (path: string) => sizes.find((size) => size.path === path);
  const loader = sizeOf('/widget.js');
  const panelParts = sizes.filter((size) => size.path !== '/widget.js');
  const panelGzipped = panelParts.reduce((sum, size) => sum + size.gzippedBytes, 0);
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const watching = options.watchIntervalMs === null ? 'at its default (250)' : `set to ${options.watchIntervalMs} (default 250)`;
  const lines = [
    `\`${command}\`, ${startedAt}. ${machine}. EVENT_WATCH_INTERVAL_MS ${watching}, EVENT_STREAM_HEARTBEAT_MS at its default (15000). Each layout's timed replies follow one untimed reply (warm-up).`,
    '',
    '| Built file, as served | gzipped | plain |',
    '|---|---:|---:|',
    ...sizes.map((size) => `| \`${size.path}\` | ${kB(size.gzippedBytes)} | ${kB(size.plainBytes)} |`),
    `| loader: budget 10 kB | ${kB(loader?.gzippedBytes ?? Number.NaN)} | ${met((loader?.gzippedBytes ?? Infinity) < LOADER_BUDGET_BYTES)} |`,
    `| panel (script + stylesheet): budget 60 kB | ${kB(panelGzipped)} | ${met(panelGzipped < PANEL_BUDGET_BYTES)} |`,
    '',
  ];
  const columns = results.flatMap((result) => result.layouts.map((layout) => ({ result, layout })));
  lines.push(
    `| ${options.panels} open panels on one process | ${columns
      .map(
        ({ result, layout }) =>
          `${result.dialect}, ${layout.tabs} per conversation${layout.writer === 'another' ? ', replies from another process' : ''}`,
      )
      .join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
  );
  const row = (label: string, cell: (result: DialectResult, layout: LayoutResult) => string) =>
    lines.push(`| ${label} | ${columns.map(({ result, layout }) => cell(result, layout)).join(' | ')} |`);
  const reachOf = (layout: LayoutResult, field: 'allMs' | 'firstMs' | 'postMs') => layout.reach.map((sample) => sample[field]);
  row('conversations (visitors)', (_, layout) => String(layout.conversations));
  row(
    `reply → all of its visitor's panels, ms: p50 / p99 / max (${options.samples} replies)`,
    (_, layout) =>
      `${percentile(reachOf(layout, 'allMs'), 0.5).toFixed(0)} / ${percentile(reachOf(layout, 'allMs'), 0.99).toFixed(0)} / ${Math.max(
        ...reachOf(layout, 'allMs'),
      ).toFixed(0)}`,
  );
  row(`… p99 under ${REACH_TARGET_MS} ms`, (_, layout) => met(percentile(reachOf(layout, 'allMs'), 0.99) < REACH_TARGET_MS));
  row(`… replies over ${REACH_TARGET_MS} ms`, (_, layout) =>
    String(layout.reach.filter((sample) => !(sample.allMs < REACH_TARGET_MS)).length),
  );
  row('… to its first panel, ms: p50', (_, layout) => percentile(reachOf(layout, 'firstMs'), 0.5).toFixed(0));
  row("… the reply's POST answered, ms: p50 / max", (_, layout) => {
    const post = reachOf(layout, 'postMs');
    return `${percentile(post, 0.5).toFixed(0)} / ${Math.max(...post).toFixed(0)}`;
  });
  row(`panels a reply missed (not there after ${REACH_TIMEOUT_MS / 1000} s)`, (_, layout) =>
    String(layout.reach.reduce((sum, sample) => sum + sample.missed, 0)),
  );
  row("replies seen by another visitor's panel", (_, layout) => String(layout.strayMessages));
  row('panels dropped by the server', (_, layout) => String(layout.dropped));
  row(`opening ${options.panels} panels (50 at a time), s`, (_, layout) => layout.openSeconds.toFixed(1));
  row('server RSS MiB: no panel → all open → after the replies', (result, layout) =>
    [result.rssBeforePanels, layout.rss.held, layout.rss.afterReplies].map((mib) => mib.toFixed(0)).join(' → '),
  );
  row(`… under ${RSS_TARGET_MIB} MiB with all panels open`, (_, layout) => met(layout.rss.held < RSS_TARGET_MIB));
  row('server peak RSS (VmHWM) over the whole run, MiB', (result) => result.rssPeak.toFixed(0));
  row('making the visitors and handoffs (10 at a time), s', (result) => result.setupSeconds.toFixed(1));
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
