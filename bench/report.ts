import type { BenchDialect } from './datasets.js';
import { helpCenterSection } from './help-center-report.js';
import { LIST_LABELS, LIST_NAMES, type ListVariant } from './probes.js';
import { reportsSection } from './reports.js';
import { median, type PairResult, type RunResults, type Summary, summarize } from './results.js';

/** The run as Markdown: ratio tables per dialect, the targets met or not, the machine, the profile. */

const TARGETS = {
  commentCreate: { sqlite: 0.6, postgres: 0.5 },
  ticketById: 0.8,
  cpuRatio: 2,
  listP99Ratio: 1.3,
  startMs: 1000,
  rssMiB: 200,
} as const;

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(1)) : 'n/a');
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const met = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'met' : '**not met**');
const dialectName = (dialect: BenchDialect) => (dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');

/** A p99 from few answers is a lower bound: the slowest requests were still running when the load stopped. */
const p99 = (summary: Summary) => `${summary.sparse ? '≥ ' : ''}${ms(summary.p99)}`;

function cpuCell(summary: Summary): string {
  const bound = summary.sparse ? '≥ ' : '';
  return summary.dbCpu === null ? `${bound}${ms(summary.cpu)}` : `${bound}${ms(summary.cpu)} + ${ms(summary.dbCpu)} db`;
}

/** Switchboard against raw; a lower bound when Switchboard's side is one. */
const versus = (switchboard: Summary, value: number) => `${switchboard.sparse ? '≥ ' : ''}${ratio(value)}`;

function failures(summary: Summary): string {
  return summary.failed > 0 ? ` (${summary.failed} failed: ${summary.firstFailure ?? '?'})` : '';
}

interface TargetLine {
  target: string;
  value: string;
  ok: boolean | null;
}

export function renderReport(results: RunResults): string {
  const targets: TargetLine[] = [];
  const dialects = [...new Set([...results.pairs.map((p) => p.dialect), ...results.starts.map((s) => s.dialect)])];
  const sections: string[] = [];
  for (const dialect of dialects) {
    sections.push(`## ${dialectName(dialect)}`, '');
    sections.push(...headlineSection(results, dialect, targets));
    sections.push(...listSection(results, dialect, targets));
    sections.push(...collectionSection(results, dialect));
    sections.push(...scaleSection(results, dialect));
    sections.push(...startAndMemorySection(results, dialect, targets));
  }
  cpuTargets(results, targets);
  const helpCenter = helpCenterSection(results.helpCenter ?? []);
  targets.push(...helpCenter.targets);
  if (helpCenter.lines.length > 0) {
    sections.push('## Public help center', '', ...helpCenter.lines);
  }
  const reports = reportsSection(results.reports ?? []);
  targets.push(...reports.targets);
  if (reports.lines.length > 0) {
    sections.push('## Reports at a million tickets', '', ...reports.lines, '');
  }
  const profile = results.profiles.flatMap((p) => [
    `## CPU profile: ${p.path ?? 'comment create'} on ${dialectName(p.dialect)}, ${p.server === 'raw' ? 'raw baseline' : 'Switchboard'}${p.connections ? `, ${p.connections} connections` : ''}`,
    '',
    `\`node --cpu-prof\` on the server process during the load, its start left out (profile kept at \`${p.file}\`; summarised by \`bench/cpu-profile.ts\`). ` +
      'V8 charges native work to the JavaScript function that called it: SQLite executing a statement shows as the better-sqlite3 call ' +
      '(in `src/db/connect.ts` for Switchboard, whose bundled frames are named by their source map); `writev` and `writeString` are socket and log writes.',
    '',
    p.markdown,
    '',
  ]);
  return [
    '# Benchmark results',
    '',
    ...(results.settings.note ? [results.settings.note, ''] : []),
    `Measured by \`${results.settings.command}\`, ${results.startedAt} → ${results.finishedAt ?? '…'}. ` +
      'Reproduce with `npm run bench:seed && npm run bench` (`npm run bench -- --help` for the options).',
    '',
    '## Targets',
    '',
    '| Target | Measured | |',
    '|---|---|---|',
    ...targets.map((line) => `| ${line.target} | ${line.value} | ${met(line.ok)} |`),
    '',
    ...sections,
    ...profile,
    ...ABOUT,
    ...machineSection(results),
    ...(results.notes.length > 0 ? ['## Notes from the run', '', ...results.notes.map((note) => `- ${note}`), ''] : []),
  ].join('\n');
}

const ABOUT = [
  '## What is measured',
  '',
  '- **Switchboard**: `node bin/switchboard.js serve` from `dist/switchboard.js` (bundled by `npm run build` at the start of the run), default settings (API key cache 5 s, PostgreSQL pool 10), `AUTH_FAILURES_PER_MINUTE=0`.',
  '- **Raw baseline** (`bench/raw-server.mjs`): Fastify + TypeBox without logging, with one prepared statement per path (better-sqlite3; `pg.Pool` of 10 with named prepared statements), on the same database file or PostgreSQL database. ' +
    "API key: the header's SHA-256 looked up once by the indexed `key_hash`, then kept in memory for 5 s like Switchboard's cache; every query is scoped to the key's organization. " +
    'Comment create is one `INSERT … SELECT … FROM tickets WHERE id = ? AND organization_id = ? RETURNING …` (the ticket check and the write in one statement); ticket by id returns the ticket row; lists page by keyset on the existing indexes, the deep page asked for with the sort keys of the row before it.',
  '- **Datasets** (`npm run bench:seed`, kept in `bench/.data/` and databases `switchboard_bench_1k` / `_1m`): one organization with 1k (or 1M) tickets in one team, one ticket with 1k (1M) comments, 1k (1M) custom fields, 1k (1M) chat threads of the admin with one message each; help centers of 1k, 10k and 20k collections, each in its own organization. ' +
    "One row of each kind is made through the API, the rest are copies made by direct inserts with the project's id formats and increasing timestamps.",
  '- **Paths**: comment create (`POST /v1/tickets/{id}/comment`, `{"content": …}` with a three-paragraph public reply holding a link and a mention, as an admin writes it) on a ticket made through the API without seeded comments (the comments written are deleted after each measurement) and ticket by id (`GET /v1/tickets/{id}`, a ticket in the middle of the seeded ones), on the 1k and the 1m dataset, each at 10 and at 64 connections. The organization is made by `switchboard orgs create`, its team and first rows through the API, and Switchboard runs as `serve` runs it, its background workers included.',
  '- **Lists**: tickets of the team (`limit=10`), comments of the big ticket (`limit=20`), custom fields (`limit=10`), chat history (`limit=10`). "deep page" is the last full page by `page` (page 99,999 of 1M tickets); "deep cursor" is the same page reached by a cursor, measured when the list answers with a `nextCursor` (checked to start where the raw deep page starts). Each list is measured on the 1k and the 1m dataset; the deep pages by number after every first page and deep cursor, since the paths measured right after a deep page\'s index walks came out up to twice as slow at p99.',
  '',
];

function headlineSection(results: RunResults, dialect: BenchDialect, targets: TargetLine[]): string[] {
  const pairs = results.pairs.filter((p) => p.dialect === dialect && p.group === 'headline');
  if (pairs.length === 0) {
    return [];
  }
  const lines = [
    '### Paths',
    '',
    '| Path | Dataset | Connections | Switchboard req/s | raw req/s | ratio (paired, per round) | Switchboard CPU ms/req | raw CPU ms/req | CPU ratio | Switchboard p99 ms | raw p99 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const worst = new Map<string, { throughput: number; where: string; all: string[] }>();
  for (const pair of pairs) {
    const [sb, raw] = [summarize(pair.switchboard), summarize(pair.raw)];
    const throughput = sb.rps / raw.rps;
    const rounds = pair.switchboard.map((measured, index) => {
      const other = pair.raw[index];
      return other ? (measured.requestsPerSecond / other.requestsPerSecond).toFixed(2) : 'n/a';
    });
    const connections = pair.connections ?? results.settings.connections;
    lines.push(
      `| ${pair.name} | ${pair.dataset} | ${connections} | ${fmt(sb.rps)}${failures(sb)} | ${fmt(raw.rps)}${failures(raw)} | ${ratio(
        throughput,
      )} (${rounds.join(', ')}) | ${cpuCell(sb)} | ${cpuCell(raw)} | ${versus(sb, sb.totalCpu / raw.totalCpu)} | ${p99(sb)} | ${p99(raw)} |`,
    );
    const where = `${pair.dataset}, ${connections} connections`;
    const seen = worst.get(pair.name);
    const all = [...(seen?.all ?? []), `${ratio(throughput)} (${where})`];
    worst.set(pair.name, !seen || throughput < seen.throughput ? { throughput, where, all } : { ...seen, all });
  }
  for (const [name, found] of worst) {
    const goal = name === 'comment create' ? TARGETS.commentCreate[dialect] : name === 'ticket by id' ? TARGETS.ticketById : null;
    if (goal !== null) {
      targets.push({
        target: `${name} ≥ ${goal}× raw (${dialectName(dialect)}), at every dataset and connection count`,
        value: `worst ${ratio(found.throughput)} (${found.where}); ${found.all.join(', ')}`,
        ok: found.throughput >= goal,
      });
    }
  }
  lines.push(
    '',
    "ratio: the medians of the rounds divided; in parentheses each round's Switchboard against the raw measurement beside it. " +
      'CPU: the server process (user + system) per request; on PostgreSQL "+ … db" adds its backends\' CPU. The CPU ratio compares the totals.',
    '',
  );
  return lines;
}

function find(results: RunResults, dialect: BenchDialect, list: string, variant: ListVariant, dataset: string) {
  return results.pairs.find((p) => p.dialect === dialect && p.list === list && p.variant === variant && p.dataset === dataset);
}

function listSection(results: RunResults, dialect: BenchDialect, targets: TargetLine[]): string[] {
  const pairs = results.pairs.filter((p) => p.dialect === dialect && p.group === 'list');
  if (pairs.length === 0) {
    return [];
  }
  const lines = [
    '### Lists: 1k rows against 1m rows',
    '',
    'p99 of Switchboard at each size and their ratio (target ≤ 1.3×), then the raw keyset baseline, then Switchboard against raw on the large dataset. ' +
      '"≥" marks a p99 from fewer than 20 answers in the window: slower requests were still running when the load stopped, so it is a lower bound.',
    '',
    '| List | Page | Switchboard p99 1k | Switchboard p99 1m | 1m/1k | | raw p99 1k | raw p99 1m | raw 1m/1k | req/s vs raw (1m) | CPU vs raw (1m) |',
    '|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  ];
  let worst: { value: number; where: string; bound: boolean } | null = null;
  let allMet = true;
  for (const list of LIST_NAMES) {
    for (const variant of ['first', 'deep page', 'deep cursor'] as const) {
      const small = find(results, dialect, list, variant, '1k');
      const large = find(results, dialect, list, variant, '1m');
      if (!small && !large) {
        continue;
      }
      const [sbSmall, sbLarge] = [small && summarize(small.switchboard), large && summarize(large.switchboard)];
      const [rawSmall, rawLarge] = [small && summarize(small.raw), large && summarize(large.raw)];
      const growth = sbSmall && sbLarge ? sbLarge.p99 / sbSmall.p99 : Number.NaN;
      const ok = Number.isFinite(growth) ? growth <= TARGETS.listP99Ratio : null;
      if (ok === false || (ok === null && sbLarge)) {
        allMet = false;
      }
      if (Number.isFinite(growth) && (worst === null || growth > worst.value)) {
        worst = { value: growth, where: `${LIST_LABELS[list]}, ${variant}`, bound: sbLarge?.sparse === true };
      }
      lines.push(
        `| ${LIST_LABELS[list]} | ${variant} | ${sbSmall ? p99(sbSmall) + failures(sbSmall) : '-'} | ${
          sbLarge ? p99(sbLarge) + failures(sbLarge) : '-'
        } | ${sbLarge?.sparse ? '≥ ' : ''}${ratio(growth)} | ${met(ok)} | ${rawSmall ? p99(rawSmall) : '-'} | ${rawLarge ? p99(rawLarge) : '-'} | ${
          rawSmall && rawLarge ? ratio(rawLarge.p99 / rawSmall.p99) : '-'
        } | ${sbLarge && rawLarge ? ratio(sbLarge.rps / rawLarge.rps) : '-'} | ${
          sbLarge && rawLarge ? versus(sbLarge, sbLarge.totalCpu / rawLarge.totalCpu) : '-'
        } |`,
      );
    }
  }
  const cursorMissing = LIST_NAMES.filter((list) => list !== 'chatHistory' && !find(results, dialect, list, 'deep cursor', '1m'));
  if (cursorMissing.length > 0) {
    allMet = false;
  }
  targets.push({
    target: `every list's p99 at 1m ≤ 1.3× at 1k, first and deep page, cursor and page (${dialectName(dialect)})`,
    value:
      (worst ? `worst ${worst.bound ? '≥ ' : ''}${ratio(worst.value)} (${worst.where})` : 'n/a') +
      (cursorMissing.length > 0 ? `; no cursor offered by ${cursorMissing.map((list) => LIST_LABELS[list]).join(', ')}` : ''),
    ok: worst === null ? null : allMet,
  });
  lines.push('');
  return lines;
}

function collectionSection(results: RunResults, dialect: BenchDialect): string[] {
  const pairs = results.pairs
    .filter((p) => p.dialect === dialect && p.group === 'collections')
    .sort((a, b) => (a.size ?? 0) - (b.size ?? 0));
  if (pairs.length === 0) {
    return [];
  }
  const first = pairs[0] && summarize(pairs[0].switchboard);
  const lines = [
    '### Collections of one help center',
    '',
    '| Help center | Switchboard req/s | raw req/s | ratio | Switchboard p99 ms | raw p99 ms | p99 vs smallest | CPU vs raw |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const pair of pairs) {
    const [sb, raw] = [summarize(pair.switchboard), summarize(pair.raw)];
    lines.push(
      `| ${pair.name} | ${fmt(sb.rps, 1)}${failures(sb)} | ${fmt(raw.rps, 1)} | ${ratio(sb.rps / raw.rps)} | ${p99(sb)} | ${ms(
        raw.p99,
      )} | ${first ? ratio(sb.p99 / first.p99) : '-'} | ${versus(sb, sb.totalCpu / raw.totalCpu)} |`,
    );
  }
  lines.push('');
  return lines;
}

function scaleSection(results: RunResults, dialect: BenchDialect): string[] {
  const rows = results.scale.filter((s) => s.dialect === dialect);
  if (rows.length === 0) {
    return [];
  }
  const lines = [
    '### Two processes against one (same database)',
    '',
    'Servers not pinned (both CPUs, shared with PostgreSQL and the load generator); the load is split evenly between the processes.',
    '',
    '| Path | Switchboard 1 proc req/s | 2 procs | 2/1 | raw 1 proc req/s | 2 procs | 2/1 | Switchboard vs raw, 2 procs | CPU vs raw, 2 procs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const [sb1, sb2, raw1, raw2] = [row.switchboardOne, row.switchboardTwo, row.rawOne, row.rawTwo].map(summarize) as [
      Summary,
      Summary,
      Summary,
      Summary,
    ];
    lines.push(
      `| ${row.name} | ${fmt(sb1.rps)} | ${fmt(sb2.rps)} | ${ratio(sb2.rps / sb1.rps)} | ${fmt(raw1.rps)} | ${fmt(raw2.rps)} | ${ratio(
        raw2.rps / raw1.rps,
      )} | ${ratio(sb2.rps / raw2.rps)} | ${versus(sb2, sb2.totalCpu / raw2.totalCpu)} |`,
    );
  }
  lines.push('');
  return lines;
}

function startAndMemorySection(results: RunResults, dialect: BenchDialect, targets: TargetLine[]): string[] {
  const lines: string[] = [];
  const start = results.starts.find((s) => s.dialect === dialect);
  if (start) {
    const [sb, raw] = [median(start.switchboardMs), median(start.rawMs)];
    lines.push(
      '### Start to first authenticated answer',
      '',
      `Spawn to the first 200 of \`GET /v1/users/me\` (polled every 10 ms), median of ${start.switchboardMs.length}: ` +
        `Switchboard **${fmt(sb)} ms** (${start.switchboardMs.map((v) => fmt(v)).join(', ')}), raw ${fmt(raw)} ms ` +
        `(${start.rawMs.map((v) => fmt(v)).join(', ')}); ratio ${ratio(sb / raw)}.`,
      '',
    );
    targets.push({
      target: `start to first authenticated answer < 1 s (${dialectName(dialect)})`,
      value: `${fmt(sb)} ms`,
      ok: sb < TARGETS.startMs,
    });
  }
  const rss = results.rss.find((r) => r.dialect === dialect);
  if (rss) {
    const [sb, raw] = [median(rss.switchboardMiB), median(rss.rawMiB)];
    lines.push(
      '### Peak memory under the write load',
      '',
      `VmHWM of a fresh process after the comment-create load: Switchboard **${fmt(sb)} MiB** ` +
        `(${median(rss.switchboardRequests).toFixed(0)} comments), raw ${fmt(raw)} MiB (${median(rss.rawRequests).toFixed(0)} comments); ` +
        `ratio ${ratio(sb / raw)}.`,
      '',
    );
    targets.push({
      target: `peak RSS under the write load < 200 MiB (${dialectName(dialect)})`,
      value: `${fmt(sb)} MiB`,
      ok: sb < TARGETS.rssMiB,
    });
  }
  return lines;
}

function cpuTargets(results: RunResults, targets: TargetLine[]): void {
  const measured = results.pairs.map((pair: PairResult) => {
    const switchboard = summarize(pair.switchboard);
    return { pair, switchboard, ratio: switchboard.totalCpu / summarize(pair.raw).totalCpu };
  });
  const finite = measured.filter((entry) => Number.isFinite(entry.ratio));
  if (finite.length === 0) {
    return;
  }
  const over = finite.filter((entry) => entry.ratio > TARGETS.cpuRatio);
  const worst = finite.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  targets.push({
    target: 'CPU per request ≤ 2× raw on every measured path',
    value: `${finite.length - over.length} of ${finite.length} paths within; worst ${versus(worst.switchboard, worst.ratio)} (${dialectName(
      worst.pair.dialect,
    )} ${worst.pair.dataset}, ${worst.pair.name})`,
    ok: over.length === 0,
  });
}

function machineSection(results: RunResults): string[] {
  const s = results.settings;
  return [
    '## Machine and settings',
    '',
    ...Object.entries(results.machine).map(([key, value]) => `- ${key}: ${value}`),
    `- Pinning: ${s.pinning.server === null ? 'none (one CPU or no taskset)' : `servers on CPU ${s.pinning.server}, load generator (autocannon, in the bench process) on CPU ${s.pinning.load}; PostgreSQL not pinned`}`,
    `- Load: autocannon; the headline paths at ${(s.headlineConnections ?? [s.connections]).join(' and ')} connections, the rest at ${s.connections}; ${s.durationSeconds} s per path measurement and ${s.listDurationSeconds} s per list measurement after ${s.warmupSeconds} s of warm-up; ${s.rounds} round(s), Switchboard and raw alternated (A/B/A/B…), medians of the rounds reported; before each warm-up and each measurement, both servers and their PostgreSQL backends are left to go idle (what a slow path left running is not charged to the next one)`,
    `- Latency: each response's time in fractional ms from autocannon's response events; CPU from utime + stime in /proc/<pid>/stat (and PostgreSQL backends found by application_name) before and after the load, divided by the answers`,
    `- Logging: Switchboard at LOG_LEVEL=${s.logLevel}${s.logLevel === 'info' || s.logLevel === 'debug' ? ' (one JSON line per request)' : ' (no line per request)'}; the raw baseline does not log`,
    `- Peak memory: VmHWM of a fresh process after ${s.rssSeconds ?? s.durationSeconds} s of comment creation at ${Math.max(...(s.headlineConnections ?? [s.connections]))} connections`,
    `- Datasets: 1k and ${s.rowsOf1m} rows per list (npm run bench:seed); start time median of ${s.startRepeats} starts on the 1m dataset`,
    `- Scenarios: ${s.scenarios.join(', ')}${s.quick ? ' (quick mode: not for comparison)' : ''}`,
    '',
  ];
}
