import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { publishedArticleMarkdown } from '../articles/article.markdown.js';
import { readableContext, type SiteDeps, sendNotFound, siteContextOf } from './site.routes.js';
import { canonicalAddress, sitePaths } from './site-address.js';
import { markdownArticle, publicLlmsText, publicSitemap } from './site-feeds.service.js';
import { SITEMAP_URL_LIMIT, sitemapIndexXml, urlsetXml } from './sitemap.js';

export interface SiteFeedOptions {
  /** Addresses per sitemap before the sitemap becomes an index: the protocol's 50,000 unless a test lowers it. */
  sitemapUrlLimit?: number;
}

/** What anyone may read, the same for every reader: a CDN may keep it a minute and serve it stale while it asks again. */
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=600';
const XML = 'application/xml; charset=utf-8';

/** The sitemap's and `llms.txt`'s help center: a protected one has nothing public to list. */
async function publicContext(deps: SiteDeps, request: Parameters<typeof siteContextOf>[1], reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (context?.helpCenter.isProtected) {
    await sendNotFound(reply, context);
    return null;
  }
  return context;
}

function sendText(reply: FastifyReply, contentType: string, body: AsyncIterable<string> | string, extra = {}) {
  return reply
    .headers({ 'content-type': contentType, 'cache-control': PUBLIC_CACHE, 'x-content-type-options': 'nosniff', ...extra })
    .send(typeof body === 'string' ? body : Readable.from(body));
}

/** `sitemap-{n}.xml`: n from 1, written without leading zeros. */
const SITEMAP_PAGE = /^[1-9][0-9]{0,8}$/;

export function registerSiteFeedRoutes(app: FastifyInstance, deps: SiteDeps, options: SiteFeedOptions = {}): void {
  const limit = options.sitemapUrlLimit ?? SITEMAP_URL_LIMIT;

  const sendSitemap = async (request: Parameters<typeof siteContextOf>[1], reply: FastifyReply, page?: number) => {
    const context = await publicContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    const sitemap = await publicSitemap(deps.db, context.helpCenter, canonicalAddress(context.address), { limit, page });
    if (sitemap.kind === 'missing') {
      return sendNotFound(reply, context);
    }
    return sendText(reply, XML, sitemap.kind === 'index' ? sitemapIndexXml(sitemap.sitemaps) : urlsetXml(sitemap.entries));
  };

  app.get('/:helpCenterSlug/sitemap.xml', (request, reply) => sendSitemap(request, reply));

  app.get('/:helpCenterSlug/sitemap-:page.xml', async (request, reply) => {
    const { page } = request.params as { page: string };
    if (!SITEMAP_PAGE.test(page)) {
      return sendNotFound(reply, null);
    }
    return sendSitemap(request, reply, Number(page));
  });

  app.get('/:helpCenterSlug/llms.txt', async (request, reply) => {
    const context = await publicContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    return sendText(
      reply,
      'text/plain; charset=utf-8',
      publicLlmsText(deps.db, context.helpCenter, canonicalAddress(context.address)),
    );
  });

  // The article page's address with `.md` appended; `12-refunds.md.md` or `..%2F.md` find no article.
  app.get('/:helpCenterSlug/articles/:segment.md', async (request, reply) => {
    const context = await readableContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    const { segment } = request.params as { segment: string };
    const found = await markdownArticle(deps.db, context.helpCenter, context.viewer, segment);
    if (found.kind === 'missing') {
      return sendNotFound(reply, context);
    }
    if (found.kind === 'moved') {
      return reply.redirect(sitePaths.markdown(context.address, found.to), 301);
    }
    const canonical = canonicalAddress(context.address);
    const page = sitePaths.absolute(canonical, sitePaths.article(canonical, found.page));
    return sendText(reply, 'text/markdown; charset=utf-8', await publishedArticleMarkdown(found.page), {
      // Search engines index the HTML page; this is its plain-text twin.
      link: `<${page.replace(/[<>\s"]/g, encodeURIComponent)}>; rel="canonical"`,
      // A signed-in reader may see protected collections: what they read is theirs alone.
      ...(context.viewer.contact ? { 'cache-control': 'private, no-store' } : {}),
    });
  });
}
