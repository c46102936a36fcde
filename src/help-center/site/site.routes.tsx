import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AttemptCounter } from '../../http/attempt-counters.js';
import { normalizeError } from '../../http/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { findSupportAddress } from '../../platform/mailboxes/mailbox.lookup.js';
import { DEFAULT_PRIMARY_COLOR } from '../help-centers/help-center.theme.js';
import { outlineArticle } from './article-outline.js';
import { servesHelpCenter } from './custom-domains.js';
import {
  ANONYMOUS,
  articlePage,
  collectionPage,
  findSiteHelpCenter,
  homePage,
  mayRead,
  type SiteHelpCenter,
  type SiteViewer,
  searchPage,
} from './site.service.js';
import { type SiteAddress, sitePaths, withSiteImages } from './site-address.js';
import { servePage } from './site-cache.js';
import { articleHead, collectionHead, homeHead, searchHead } from './site-heads.js';
import { renderSitePage, type SiteContext, sendPage } from './site-page.js';
import type { SitePageCache } from './site-page-cache.js';
import { ArticleView, type FeedbackState } from './views/article.js';
import { CollectionView } from './views/collection.js';
import { HomeView } from './views/home.js';
import { MessageView } from './views/message.js';
import { SearchView } from './views/search.js';

export interface SiteDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  /** Where uploads are kept: the logo is one. */
  storage: AttachmentStorage;
  /** Counters shared by every process (Redis, else the database): votes per address. */
  attempts: AttemptCounter;
  /** Who is reading: a signed-in customer contact of the help center's organization, or anyone. */
  viewerOf(request: FastifyRequest, helpCenter: SiteHelpCenter): Promise<SiteViewer>;
  /** Where the help center's pages are for this request: `/hc/{slug}` or its custom domain's root. */
  addressOf(request: FastifyRequest, helpCenter: Pick<SiteHelpCenter, 'slug' | 'customDomain'>): SiteAddress;
  /** Rendered pages of anonymous readers, kept until a change of their organization's site. */
  pages: SitePageCache;
}

type Params = { helpCenterSlug: string };

/** The built-in theme's stand-in for pages of no help center (an unknown address). */
export const NO_HELP_CENTER: SiteHelpCenter = {
  id: '',
  organizationId: '',
  name: 'Help center',
  slug: '',
  customDomain: null,
  isProtected: false,
  meta: { title: null, description: null, image: null },
  updatedAt: '1970-01-01T00:00:00.000Z',
  theme: { primaryColor: DEFAULT_PRIMARY_COLOR, hasLogo: false, footerLinks: [] },
  logoAttachmentId: null,
};

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;

export function queryValue(request: FastifyRequest, name: string): string | undefined {
  return firstString((request.query as Record<string, unknown> | undefined)?.[name]);
}

/** The themed 404: an unknown help center, collection or article, or one the reader may not see. */
export async function sendNotFound(reply: FastifyReply, context: SiteContext | null) {
  const page = await renderSitePage(
    context ?? { helpCenter: NO_HELP_CENTER, viewer: { contact: null }, address: { origin: '', base: '' } },
    { title: 'Page not found', description: null, canonicalPath: null, noindex: true },
    <MessageView
      address={context?.address ?? null}
      title="Page not found"
      paragraphs={['The page you asked for does not exist, or it is not published.']}
    />,
    { status: 404, headerSearch: context !== null },
  );
  return sendPage(reply, page, { 'cache-control': 'no-store' });
}

/**
 * Anything a page's handler did not answer itself: a body the site does not take (415, 413), a
 * malformed one (400), or a fault (500, logged with the request id, no internals shown).
 */
export async function sendErrorPage(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const normalized = normalizeError(error);
  if (normalized.fault) {
    request.log.error({ err: normalized.fault }, 'request failed');
  } else {
    request.failureReason = normalized.message;
  }
  const fault = normalized.status >= 500;
  const page = await renderSitePage(
    { helpCenter: NO_HELP_CENTER, viewer: ANONYMOUS, address: { origin: '', base: '' } },
    { title: fault ? 'Something went wrong' : 'Request not understood', description: null, canonicalPath: null, noindex: true },
    <MessageView
      address={null}
      title={fault ? 'Something went wrong' : 'Request not understood'}
      paragraphs={[fault ? 'The page could not be shown. Try again in a moment.' : 'The page could not read what was sent.']}
    />,
    { status: normalized.status, headerSearch: false },
  );
  return sendPage(reply, page, { 'cache-control': 'no-store' });
}

/** The request's help center and reader, or a 404 page already sent. */
export async function siteContextOf(deps: SiteDeps, request: FastifyRequest, reply: FastifyReply): Promise<SiteContext | null> {
  const { helpCenterSlug } = request.params as Params;
  const helpCenter = /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(helpCenterSlug)
    ? await findSiteHelpCenter(deps.db, helpCenterSlug)
    : undefined;
  if (!helpCenter || !servesHelpCenter(request.raw, helpCenter)) {
    await sendNotFound(reply, null);
    return null;
  }
  return { helpCenter, viewer: await deps.viewerOf(request, helpCenter), address: deps.addressOf(request, helpCenter) };
}

/** A protected help center shows anonymous readers its sign-in page only. */
function sendToSignIn(reply: FastifyReply, context: SiteContext, request: FastifyRequest) {
  // The address as the reader wrote it: on a custom domain, without the `/hc/{slug}` it is routed by.
  const next = request.originalUrl.startsWith(context.address.base) ? request.originalUrl : sitePaths.home(context.address);
  return reply.redirect(`${sitePaths.signIn(context.address)}?${new URLSearchParams({ next }).toString()}`, 303);
}

/** A readable page of the site, or the sign-in redirect, or the 404 page. */
export async function readableContext(deps: SiteDeps, request: FastifyRequest, reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (context && !mayRead(context.helpCenter, context.viewer)) {
    await sendToSignIn(reply, context, request);
    return null;
  }
  return context;
}

function feedbackStateOf(request: FastifyRequest): FeedbackState {
  const value = queryValue(request, 'feedback');
  return value === 'yes' || value === 'no' || value === 'sent' ? value : 'none';
}

export function registerSitePageRoutes(app: FastifyInstance, deps: SiteDeps): void {
  app.get('/:helpCenterSlug', async (request, reply) => {
    const context = await siteContextOf(deps, request, reply);
    return context ? reply.redirect(sitePaths.home(context.address), 301) : reply;
  });

  app.get('/:helpCenterSlug/', async (request, reply) => {
    const context = await readableContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    return servePage(deps.pages, request, reply, context, async () => {
      const { collections } = await homePage(deps.db, context.helpCenter, context.viewer);
      const body = <HomeView helpCenter={context.helpCenter} address={context.address} collections={collections} />;
      return {
        page: await renderSitePage(context, homeHead(context), body, { headerSearch: false }),
        changedAt: [context.helpCenter.updatedAt, ...collections.map((card) => card.collection.updatedAt)],
      };
    });
  });

  app.get('/:helpCenterSlug/collections/:segment', async (request, reply) => {
    const context = await readableContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    const after = Number(queryValue(request, 'after'));
    const afterUid = Number.isSafeInteger(after) && after > 0 ? after : undefined;
    const segment = (request.params as { segment: string }).segment;
    return servePage(deps.pages, request, reply, context, async () => {
      const found = await collectionPage(deps.db, context.helpCenter, context.viewer, segment, afterUid);
      if (found.kind !== 'page') {
        await (found.kind === 'missing'
          ? sendNotFound(reply, context)
          : reply.redirect(sitePaths.collection(context.address, found.to), 301));
        return null;
      }
      const { collection, trail, children, articles } = found.page;
      const body = (
        <CollectionView
          helpCenter={context.helpCenter}
          address={context.address}
          paged={afterUid !== undefined}
          {...found.page}
        />
      );
      return {
        page: await renderSitePage(context, collectionHead(context, found.page), body),
        changedAt: [
          context.helpCenter.updatedAt,
          collection.updatedAt,
          ...trail.map((shown) => shown.updatedAt),
          ...children.map((card) => card.collection.updatedAt),
          ...articles.map((article) => article.publishedAt),
        ],
      };
    });
  });

  app.get('/:helpCenterSlug/articles/:segment', async (request, reply) => {
    const context = await readableContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    const segment = (request.params as { segment: string }).segment;
    return servePage(deps.pages, request, reply, context, async () => {
      const found = await articlePage(deps.db, context.helpCenter, context.viewer, segment);
      if (found.kind !== 'page') {
        await (found.kind === 'missing'
          ? sendNotFound(reply, context)
          : reply.redirect(sitePaths.article(context.address, found.to), 301));
        return null;
      }
      const { html, outline } = outlineArticle(withSiteImages(found.page.article.html, context.address));
      const body = (
        <ArticleView
          helpCenter={context.helpCenter}
          address={context.address}
          html={html}
          outline={outline}
          feedback={feedbackStateOf(request)}
          {...found.page}
        />
      );
      const { article, trail, related } = found.page;
      return {
        page: await renderSitePage(context, articleHead(context, found.page), body),
        changedAt: [
          context.helpCenter.updatedAt,
          article.updatedAt,
          ...trail.map((shown) => shown.updatedAt),
          ...related.map((shown) => shown.publishedAt),
        ],
      };
    });
  });

  registerSearchPage(app, deps);
}

/** Search results: cached like the other pages, but held shorter by browsers and CDNs. */
function registerSearchPage(app: FastifyInstance, deps: SiteDeps): void {
  app.get('/:helpCenterSlug/search', async (request, reply) => {
    const context = await readableContext(deps, request, reply);
    if (!context) {
      return reply;
    }
    const q = queryValue(request, 'q') ?? '';
    const page = Number(queryValue(request, 'page') ?? '1');
    const render = async () => {
      const outcome = await searchPage(deps.db, context.helpCenter, context.viewer, {
        q,
        page: Number.isSafeInteger(page) ? page : 1,
      });
      // "No results" offers the support address, which no site event announces: that page is not kept.
      const noResults = outcome.kind === 'results' && outcome.hits.length === 0;
      const support = noResults ? await findSupportAddress(deps.db, context.helpCenter.organizationId) : undefined;
      const body = (
        <SearchView address={context.address} q={q} outcome={outcome} contactUrl={support ? `mailto:${support}` : null} />
      );
      const status = outcome.kind === 'refused' ? 400 : 200;
      return {
        page: await renderSitePage(context, searchHead(context, q), body, { status, headerSearch: false }),
        keep: !noResults,
        changedAt: [
          context.helpCenter.updatedAt,
          ...(outcome.kind === 'results' ? outcome.hits.map((hit) => hit.publishedAt) : []),
        ],
      };
    };
    return servePage(deps.pages, request, reply, context, render, { search: true });
  });
}
