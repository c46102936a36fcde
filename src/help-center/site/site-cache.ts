import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageHeaders, type RenderedPage, type SiteContext } from './site-page.js';
import type { CachedPage, RenderTicket, SitePageCache } from './site-page-cache.js';

/**
 * How the site's pages are served again: from this process's memory to anonymous readers, with
 * the validators (`ETag`, `Last-Modified`) that let a browser or CDN revalidate without a body,
 * and the `Cache-Control` that lets a CDN hold a page for a minute and serve it stale while it
 * revalidates. A signed-in contact's page is personal: rendered each time, never stored.
 */

/** A page for anyone: a CDN may hold it a minute, and serve it up to five more while it asks again. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/**
 * Search results: shorter and never stale. No change can be traced to the searches it alters, they
 * are many and seldom repeated; 30 seconds still absorbs a burst of one popular search.
 */
export const SEARCH_CACHE_CONTROL = 'public, max-age=30';
/** A signed-in contact's page, or a refusal: no cache anywhere keeps it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** The query parameters that change a page; any other is ignored by the pages, so by the cache too. */
const PAGE_QUERY_NAMES = ['after', 'feedback', 'page', 'q'] as const;

export interface PageRender {
  page: RenderedPage;
  /** When what the page shows last changed (help center, collections, articles): ISO times, the latest counts. */
  changedAt: ReadonlyArray<string | null | undefined>;
  /** False when the page shows something no site event announces (the support address): not kept. */
  keep?: boolean;
}

export interface ServePageOptions {
  /** Search result pages are held for a shorter time (`SEARCH_CACHE_CONTROL`). */
  search?: boolean;
}

/** The page's address as the cache knows it: help center, origin and base, path, and the query that matters. */
export function pageKey(request: FastifyRequest, context: SiteContext): string {
  const [path = '', query = ''] = request.url.split('?', 2);
  const given = new URLSearchParams(query);
  const kept = PAGE_QUERY_NAMES.flatMap((name) => {
    const value = given.get(name);
    return value === null ? [] : [`${name}=${encodeURIComponent(value)}`];
  });
  const { helpCenter, address } = context;
  return `${helpCenter.id} ${address.origin}${address.base} ${path}?${kept.join('&')}`;
}

const strongTag = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

function latest(times: ReadonlyArray<string | null | undefined>, floor: number): number {
  let max = floor;
  for (const time of times) {
    const ms = time ? Date.parse(time) : Number.NaN;
    if (ms > max) {
      max = ms;
    }
  }
  // What `Last-Modified` can say: whole seconds.
  return Math.floor(max / 1000) * 1000;
}

/** Whether the reader's copy is the page (RFC 9110 13.2.2: If-None-Match first, If-Modified-Since only without it). */
export function isNotModified(request: FastifyRequest, page: Pick<CachedPage, 'etag' | 'lastModified'>): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) {
    const weakless = (tag: string) => tag.trim().replace(/^W\//, '');
    return noneMatch.trim() === '*' || noneMatch.split(',').some((tag) => weakless(tag) === page.etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && page.lastModified <= since;
}

function send(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  const validators = {
    etag: page.etag,
    'last-modified': new Date(page.lastModified).toUTCString(),
    'cache-control': page.cacheControl,
    // Once a sign-in cookie exists, the same address answers a signed-in contact differently.
    vary: 'Cookie',
  };
  if (page.status === 200 && isNotModified(request, page)) {
    return reply.code(304).headers(validators).send();
  }
  return reply
    .code(page.status)
    .headers({ ...pageHeaders(page), ...validators })
    .send(page.body);
}

/**
 * Answers a page of the site: from the cache when an anonymous reader's page is there (a matching
 * conditional request gets its 304 without anything rendered), else by `render`, which reads and
 * renders the page or answers itself (a 404, a redirect) and returns null.
 */
export async function servePage(
  pages: SitePageCache,
  request: FastifyRequest,
  reply: FastifyReply,
  context: SiteContext,
  render: () => Promise<PageRender | null>,
  options: ServePageOptions = {},
): Promise<FastifyReply> {
  const organizationId = context.helpCenter.organizationId;
  const personal = context.viewer.contact !== null;
  const key = personal || !pages.enabled ? null : pageKey(request, context);
  const cached = key === null ? undefined : pages.get(key);
  if (cached) {
    return send(request, reply, cached);
  }
  let ticket: RenderTicket | null = null;
  if (key !== null) {
    // A log that cannot be read only means this page is not kept.
    ticket = await pages.begin(organizationId).catch(() => null);
  }
  const rendered = await render();
  if (!rendered) {
    return reply;
  }
  const body = Buffer.from(rendered.page.html);
  const status = rendered.page.status;
  const page: CachedPage = {
    organizationId,
    status,
    body,
    etag: strongTag(body),
    lastModified: latest(rendered.changedAt, pages.changedAt(organizationId)),
    styleHash: rendered.page.styleHash,
    cacheControl:
      personal || status !== 200 ? PRIVATE_CACHE_CONTROL : options.search ? SEARCH_CACHE_CONTROL : PUBLIC_PAGE_CACHE_CONTROL,
  };
  if (ticket && key !== null && status === 200 && rendered.keep !== false) {
    pages.store(ticket, key, page);
  }
  return send(request, reply, page);
}
