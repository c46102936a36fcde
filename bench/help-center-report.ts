import type { HelpCenterPair, HelpCenterResult } from './help-center.js';
import { median, summarize } from './results.js';

/** The "Public help center" section of the report, and its lines of the targets table. */

export const HELP_CENTER_TARGETS = { articleVsStatic: 0.5, p99Growth: 1.3, pageWeightBytes: 30 * 1024 } as const;

export interface HelpCenterTargetLine {
  target: string;
  value: string;
  ok: boolean | null;
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(1)) : 'n/a');
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const dialectName = (dialect: string) => (dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');

/** Each round's subject against the baseline measured beside it, and the median of those ratios. */
export function pairedRatios(pair: HelpCenterPair, of: 'rps' | 'p99'): { median: number; rounds: number[] } {
  const value = (round: { requestsPerSecond: number; p99Ms: number }) => (of === 'rps' ? round.requestsPerSecond : round.p99Ms);
  const rounds = pair.subject.rounds.map((round, index) => {
    const baseline = pair.baseline.rounds[index];
    return baseline ? value(round) / value(baseline) : Number.NaN;
  });
  return { median: median(rounds), rounds };
}

const roundsText = (rounds: number[]) => rounds.map((value) => fmt(value, 2)).join(', ');

export function helpCenterSection(results: HelpCenterResult[]): { lines: string[]; targets: HelpCenterTargetLine[] } {
  const lines: string[] = [];
  const targets: HelpCenterTargetLine[] = [];
  for (const result of results) {
    const name = dialectName(result.dialect);
    lines.push(`### Public help center (${name})`, '', `Caching: ${result.caching}.`, '');
    const throughput = result.pairs.filter((pair) => pair.group === 'throughput');
    if (throughput.length > 0) {
      lines.push(
        '| Path | Switchboard req/s | @fastify/static req/s | ratio (paired, per round) | Switchboard CPU ms/req | static CPU ms/req | Switchboard p99 ms | static p99 ms |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
      );
      for (const pair of throughput) {
        const [subject, baseline] = [summarize(pair.subject.rounds), summarize(pair.baseline.rounds)];
        const paired = pairedRatios(pair, 'rps');
        lines.push(
          `| ${pair.name} (${pair.subject.label}) | ${fmt(subject.rps)} | ${fmt(baseline.rps)} | **${ratio(paired.median)}** (${roundsText(
            paired.rounds,
          )}) | ${ms(subject.cpu)} | ${ms(baseline.cpu)} | ${ms(subject.p99)} | ${ms(baseline.p99)} |`,
        );
        if (result.dialect === 'sqlite') {
          targets.push({
            target: `article page ≥ ${HELP_CENTER_TARGETS.articleVsStatic}× @fastify/static serving its HTML (SQLite)`,
            value: ratio(paired.median),
            ok: Number.isFinite(paired.median) ? paired.median >= HELP_CENTER_TARGETS.articleVsStatic : null,
          });
        }
      }
      lines.push('');
    }
    const scale = result.pairs.filter((pair) => pair.group === 'scale');
    if (scale.length > 0) {
      const [large, small] = [result.articles.large.toLocaleString('en'), result.articles.small.toLocaleString('en')];
      lines.push(
        `| Path | p99 ms at ${small} | p99 ms at ${large} | ${large}/${small} (paired, per round) | | p50 at ${small} | p50 at ${large} | req/s at ${small} | req/s at ${large} | CPU ms/req at ${small} | at ${large} |`,
        '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
      );
      for (const pair of scale) {
        const [subject, baseline] = [summarize(pair.subject.rounds), summarize(pair.baseline.rounds)];
        const paired = pairedRatios(pair, 'p99');
        const ok = Number.isFinite(paired.median) ? paired.median <= HELP_CENTER_TARGETS.p99Growth : null;
        lines.push(
          `| ${pair.name} | ${ms(baseline.p99)} | ${ms(subject.p99)} | **${ratio(paired.median)}** (${roundsText(paired.rounds)}) | ${
            ok === null ? 'n/a' : ok ? 'met' : '**not met**'
          } | ${ms(baseline.p50)} | ${ms(subject.p50)} | ${fmt(baseline.rps)} | ${fmt(subject.rps)} | ${ms(baseline.cpu)} | ${ms(subject.cpu)} |`,
        );
        targets.push({
          target: `${pair.name}: p99 at ${large} articles ≤ ${HELP_CENTER_TARGETS.p99Growth}× at ${small} (${name})`,
          value: ratio(paired.median),
          ok,
        });
      }
      lines.push('');
    }
    const weight = result.pageWeight;
    if (weight) {
      const total = weight.htmlGzipBytes + weight.cssGzipBytes;
      lines.push(
        `Page weight of \`${weight.path}\`: HTML ${kB(weight.htmlBytes)} (${kB(weight.htmlGzipBytes)} gzipped) + CSS \`${weight.stylesheet}\` ` +
          `${kB(weight.cssBytes)} (${kB(weight.cssGzipBytes)} gzipped) = **${kB(total)} gzipped**, before images (gzip level 6).`,
        '',
      );
      targets.push({
        target: `article page HTML + CSS < 30 kB gzipped, before images (${name})`,
        value: kB(total),
        ok: total < HELP_CENTER_TARGETS.pageWeightBytes,
      });
    }
  }
  if (results.length > 0) {
    lines.push(...HOW);
  }
  return { lines, targets };
}

const HOW = [
  'How: two Switchboard processes, one on a help center of 100 published articles and one on 100,000 (same 24 collections, two tags per article among 10 or 200; `bench/help-center-seed.ts`), two more on the same datasets with the page cache off (`SITE_CACHE_MAX_PAGES=0`) for the pairs marked "rendered every time", and `@fastify/static` (`bench/static-server.mjs`) serving the HTML Switchboard answered for the measured article, saved to a file; all three pinned to the servers\' CPU, idle while another is measured. ' +
    "Each pair is measured side by side, A then B, then B then A, for the rounds of the run; the ratio shown is the median of the per-round ratios (each round's two measurements taken back to back), with each round's ratio in parentheses. " +
    '"one article": every request asks for the same article (the page cache answers all of them); "many articles": requests cycle through 100 (all) or 10,000 articles spread over the help center, each read and rendered; "search": requests cycle through 25 realistic queries, each searched and rendered (`bench/help-center-content.ts`), one to three words, matching from a few to 13% of the articles.',
  '',
];
