import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_DIR } from './datasets.js';

/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions and the modules (npm
 * packages, Node internals, or the project's own files) that took the most self time.
 * Standalone: `npx tsx bench/cpu-profile.ts FILE.cpuprofile [--top N]`.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SummaryOptions {
  top?: number;
  /** Leave out samples taken earlier than this many ms after the profile started (the process's start). */
  fromMs?: number;
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** Sampled time, idle excluded. */
  busyMs: number;
  idleMs: number;
  functions: SelfTime[];
  modules: SelfTime[];
}

const REPO_URL = pathToFileURL(REPO_DIR).href;

export function moduleOf(url: string, functionName: string): string {
  if (url === '') {
    return functionName.startsWith('(') ? functionName : '(native)';
  }
  if (url.startsWith('node:')) {
    return url.startsWith('node:internal') ? 'node:internal' : url;
  }
  const packages = url.lastIndexOf('/node_modules/');
  if (packages >= 0) {
    const [first = '', second = ''] = url.slice(packages + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  return url.startsWith(REPO_URL) ? url.slice(REPO_URL.length + 1) : url;
}

const sourceMaps = new Map<string, SourceMap | null>();

/**
 * Where a frame's code was written: Switchboard runs bundled (dist/switchboard.js), so its own
 * files and the packages bundled with them are told apart through the bundle's source map.
 */
function originalFrame(frame: CallFrame): CallFrame {
  if (!frame.url.startsWith('file:')) {
    return frame;
  }
  let map = sourceMaps.get(frame.url);
  if (map === undefined) {
    const mapFile = `${fileURLToPath(frame.url)}.map`;
    map = existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null;
    sourceMaps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry)) {
    return frame;
  }
  return { ...frame, url: new URL(entry.originalSource, frame.url).href, lineNumber: entry.originalLine };
}

export function summarizeProfile(profile: CpuProfile, options: SummaryOptions = {}): ProfileSummary {
  const top = options.top ?? 10;
  const fromMs = options.fromMs ?? 0;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  let elapsedMs = 0;
  // Each sample is charged the time until the next one.
  for (let index = 0; index < profile.samples.length; index++) {
    elapsedMs += (profile.timeDeltas[index] ?? 0) / 1000;
    if (elapsedMs < fromMs) {
      continue;
    }
    const id = profile.samples[index] as number;
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + delta);
  }
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (const [id, ms] of selfByNode) {
    const recorded = byId.get(id)?.callFrame;
    if (!recorded) {
      continue;
    }
    const frame = originalFrame(recorded);
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const module = moduleOf(frame.url, frame.functionName);
    const where = frame.url === '' ? '' : ` ${module}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    modules.set(module, (modules.get(module) ?? 0) + ms);
  }
  const rank = (totals: Map<string, number>) =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }));
  return { busyMs, idleMs, functions: rank(functions), modules: rank(modules) };
}

export function profileMarkdown(summary: ProfileSummary, requests: number): string {
  const table = (title: string, rows: SelfTime[]) =>
    [
      `| ${title} | self ms | share of busy | µs per request |`,
      '|---|---:|---:|---:|',
      ...rows.map(
        (row) =>
          `| \`${row.name.replaceAll('|', '\\|')}\` | ${row.ms.toFixed(0)} | ${(row.share * 100).toFixed(1)}% | ${
            requests > 0 ? ((row.ms * 1000) / requests).toFixed(1) : '-'
          } |`,
      ),
    ].join('\n');
  return [
    `Busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms over ${requests > 0 ? requests : 'the'} requests ` +
      `(${requests > 0 ? ((summary.busyMs * 1000) / requests).toFixed(0) : '-'} µs of busy CPU per request, profiler overhead included).`,
    '',
    table('Top functions (self time)', summary.functions),
    '',
    table('Top modules (self time)', summary.modules),
  ].join('\n');
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, flag, value] = process.argv.slice(2);
  if (!file) {
    console.error('Usage: npx tsx bench/cpu-profile.ts FILE.cpuprofile [--top N]');
    process.exitCode = 1;
  } else {
    const top = flag === '--top' ? Number(value) : 10;
    console.log(profileMarkdown(summarizeProfile(readProfile(file), { top }), 0));
  }
}
