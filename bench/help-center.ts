import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BenchDialect, DATA_DIR, type DatasetLocation } from './datasets.js';
import type { HelpCenterDatasets, HelpCenterMeta } from './help-center-seed.js';
import type { HttpRequest, Measurement } from './load.js';
import type { RunSettings } from './results.js';
import { type BenchServer, type ServerOptions, startStaticFiles, startSwitchboard, waitUntilAnswering } from './servers.js';

/**
 * The public help center in `npm run bench`: the article page against `@fastify/static` serving
 * the same page's HTML from a file (throughput), the article page and search on 100,000 articles
 * against the same on 100 (p99), and an article page's weight (HTML and CSS, gzipped). Every pair
 * is measured side by side in one run, alternating, the order turned round every other round.
 */

export interface HelpCenterPair {
  group: 'throughput' | 'scale';
  name: string;
  /** The side the target is about (Switchboard; for scale, the 100,000-article help center). */
  subject: { label: string; rounds: Measurement[] };
  /** What it is compared with (the static file; for scale, the 100-article help center). */
  baseline: { label: string; rounds: Measurement[] };
}

export interface PageWeight {
  path: string;
  stylesheet: string;
  htmlBytes: number;
  cssBytes: number;
  htmlGzipBytes: number;
  cssGzipBytes: number;
}

export interface HelpCenterResult {
  dialect: BenchDialect;
  articles: { small: number; large: number };
  /** What the answers said about caching: the page cache itself is not visible from outside. */
  caching: string;
  pageWeight: PageWeight | null;
  pairs: HelpCenterPair[];
}

/** What the runner lends the scenario: its settings, server options and alternating measurements. */
export interface HelpCenterBench {
  settings: RunSettings;
  serverOptions(label: string): ServerOptions;
  measureOn(servers: BenchServer[], request: HttpRequest, durationSeconds: number): Promise<Measurement>;
  /** The servers that must be idle before each measurement. */
  track(servers: BenchServer[]): void;
  note(line: string): void;
  log(line: string): void;
}

const NO_PAGE_CACHE = { SITE_CACHE_MAX_PAGES: '0' };
const page = (meta: HelpCenterMeta, slug: string) => `/hc/${meta.helpCenterSlug}/articles/${slug}`;
const searchPath = (meta: HelpCenterMeta, term: string) =>
  `/hc/${meta.helpCenterSlug}/search?${new URLSearchParams({ q: term }).toString()}`;

function get(meta: HelpCenterMeta, path: string, paths?: string[]): HttpRequest {
  return { method: 'GET', path, paths, apiKey: meta.apiKey, expect: 200 };
}

export async function runHelpCenter(
  bench: HelpCenterBench,
  dialect: BenchDialect,
  datasets: HelpCenterDatasets,
): Promise<HelpCenterResult> {
  const [small, large] = [datasets.get(100), datasets.get(100_000)];
  if (!small || !large) {
    throw new Error('the help-center datasets are missing');
  }
  const result: HelpCenterResult = {
    dialect,
    articles: { small: small.meta.articles, large: large.meta.articles },
    caching: 'unknown',
    pageWeight: null,
    pairs: [],
  };
  const servers: BenchServer[] = [];
  const staticRoot = join(DATA_DIR, `static-${dialect}`);
  try {
    const start = async (
      dataset: { location: DatasetLocation; meta: HelpCenterMeta },
      label: string,
      env?: Record<string, string>,
    ) => {
      const server = await startSwitchboard(dataset.location, { ...bench.serverOptions(`${dialect}-hc-${label}`), env });
      servers.push(server);
      await waitUntilAnswering(server, dataset.meta.apiKey);
      return server;
    };
    const onLarge = await start(large, `${large.meta.articles}`);
    const onSmall = await start(small, `${small.meta.articles}`);
    // The same datasets with the page cache off: what a page costs to read and render, at each size.
    const renderedOnLarge = await start(large, `${large.meta.articles}-rendered`, NO_PAGE_CACHE);
    const renderedOnSmall = await start(small, `${small.meta.articles}-rendered`, NO_PAGE_CACHE);
    const hot = page(large.meta, large.meta.hotArticleSlug);
    const answer = await fetch(`${onLarge.baseUrl}${hot}`);
    const html = await answer.text();
    if (answer.status !== 200) {
      throw new Error(`GET ${hot} answered ${answer.status}`);
    }
    result.caching = cachingOf(answer.headers);
    result.pageWeight = await pageWeightOf(onLarge.baseUrl, hot, html);
    saveStaticPage(staticRoot, html);
    const files = await startStaticFiles(staticRoot, bench.serverOptions(`${dialect}-hc-static`));
    servers.push(files);
    await waitUntilAnswering(files, large.meta.apiKey);
    bench.track(servers);

    const measure = async (pair: Omit<HelpCenterPair, 'subject' | 'baseline'>, subject: Side, baseline: Side) => {
      const measured = await alternate(bench, subject, baseline);
      result.pairs.push({ ...pair, ...measured });
      const [s, b] = [measured.subject.rounds.at(-1), measured.baseline.rounds.at(-1)];
      bench.log(
        `  ${dialect} ${pair.name}: ${subject.label} ${s?.requestsPerSecond.toFixed(0)} req/s p99 ${s?.p99Ms.toFixed(2)} ms, ` +
          `${baseline.label} ${b?.requestsPerSecond.toFixed(0)} req/s p99 ${b?.p99Ms.toFixed(2)} ms`,
      );
    };
    const largeLabel = `${large.meta.articles.toLocaleString('en')} articles`;
    const smallLabel = `${small.meta.articles.toLocaleString('en')} articles`;
    await measure(
      { group: 'throughput', name: 'article page, one article' },
      { label: `Switchboard (${largeLabel})`, server: onLarge, request: get(large.meta, hot) },
      { label: '@fastify/static', server: files, request: get(large.meta, '/article.html') },
    );
    const scale = (name: string, requestOf: (meta: HelpCenterMeta) => HttpRequest, rendered = false) =>
      measure(
        { group: 'scale', name },
        { label: largeLabel, server: rendered ? renderedOnLarge : onLarge, request: requestOf(large.meta) },
        { label: smallLabel, server: rendered ? renderedOnSmall : onSmall, request: requestOf(small.meta) },
      );
    await scale('article page, one article', (meta) => get(meta, page(meta, meta.hotArticleSlug)));
    // Many articles and varied searches are compared with every request rendered: with the cache on,
    // the 100 articles and 25 searches of the small help center would all be answered from memory
    // and the 10,000 of the large one mostly not, which measures the cache's size, not the pages.
    await scale(
      'article page, many articles, rendered every time',
      (meta) => {
        const paths = meta.spreadArticleSlugs.map((slug) => page(meta, slug));
        return get(meta, paths[0] as string, paths);
      },
      true,
    );
    await scale(
      'search, varied terms, rendered every time',
      (meta) => {
        const paths = meta.searchTerms.map((term) => searchPath(meta, term));
        return get(meta, paths[0] as string, paths);
      },
      true,
    );
  } finally {
    bench.track([]);
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(staticRoot, { recursive: true, force: true });
  }
  return result;
}

interface Side {
  label: string;
  server: BenchServer;
  request: HttpRequest;
}

/** Rounds of both sides, A then B, then B then A: a drift of the machine weighs on both alike. */
async function alternate(bench: HelpCenterBench, subject: Side, baseline: Side) {
  const measured = {
    subject: { label: subject.label, rounds: [] as Measurement[] },
    baseline: { label: baseline.label, rounds: [] as Measurement[] },
  };
  const duration = bench.settings.durationSeconds;
  for (let round = 0; round < bench.settings.rounds; round++) {
    const order = round % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
    for (const side of order) {
      const { server, request } = side === 'subject' ? subject : baseline;
      measured[side].rounds.push(await bench.measureOn([server], request, duration));
    }
  }
  return measured;
}

/** The page as the site answered it, at `/article.html`, and the file the readiness checks ask for. */
function saveStaticPage(root: string, html: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'v1', 'users'), { recursive: true });
  writeFileSync(join(root, 'article.html'), html);
  writeFileSync(join(root, 'v1', 'users', 'me'), '{}');
}

function cachingOf(headers: Headers): string {
  const named = ['etag', 'last-modified', 'cache-control', 'x-cache'].filter((name) => headers.has(name));
  return named.length === 0
    ? 'no caching headers in the answer (no page cache on this commit)'
    : `answers carry ${named.map((name) => `${name}: ${headers.get(name)}`).join(', ')}`;
}

/** The page and the stylesheets it links, each gzipped (level 6, as a server compresses on the fly). */
async function pageWeightOf(baseUrl: string, path: string, html: string): Promise<PageWeight> {
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((match) => match[0]).filter((tag) => /rel="?stylesheet/.test(tag));
  const hrefs = links.map((tag) => /href="([^"]+)"/.exec(tag)?.[1]).filter((href): href is string => href !== undefined);
  const css = await Promise.all(
    hrefs.map(async (href) => {
      const response = await fetch(new URL(href.replaceAll('&amp;', '&'), `${baseUrl}${path}`));
      if (response.status !== 200) {
        throw new Error(`GET ${href} answered ${response.status}`);
      }
      return Buffer.from(await response.arrayBuffer());
    }),
  );
  const gzipped = (body: Buffer | string) => gzipSync(body, { level: 6 }).length;
  return {
    path,
    stylesheet: hrefs.join(', '),
    htmlBytes: Buffer.byteLength(html),
    cssBytes: css.reduce((sum, body) => sum + body.length, 0),
    htmlGzipBytes: gzipped(html),
    cssGzipBytes: css.reduce((sum, body) => sum + gzipped(body), 0),
  };
}
