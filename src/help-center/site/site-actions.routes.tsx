import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookies, serializeCookie } from '../../http/cookies.js';
import { AppError } from '../../lib/errors.js';
import { generateSecretToken, looksLikeSecretToken } from '../../lib/secret-token.js';
import { MAX_FEEDBACK_COMMENT, recordArticleFeedback } from '../article-feedback/article-feedback.service.js';
import { findVisibleArticle } from '../articles/published-article.service.js';
import { visibleCollectionTree } from '../collections/published-collection.service.js';
import { readHelpCenterLogo } from '../help-centers/help-center.service.js';
import { type SiteDeps, sendNotFound, siteContextOf } from './site.routes.js';
import { mayRead } from './site.service.js';
import { numberOfSegment, sitePaths } from './site-address.js';
import { isCrossSite, type SiteFormConfig } from './site-forms.js';
import { sendArticleImage } from './site-images.js';
import { renderSitePage, type SiteContext, sendPage } from './site-page.js';
import { MessageView } from './views/message.js';

/** The browser's id for votes: one vote per browser per article, a later one replacing it. */
export const VOTER_COOKIE = 'hc_voter';
const VOTER_COOKIE_SECONDS = 365 * 24 * 3600;
/** Votes one address may send in the window: enough for an office behind one address, too few to flood. */
export const VOTES_PER_ADDRESS = 60;
const VOTE_WINDOW_MS = 15 * 60_000;

async function sendMessage(reply: FastifyReply, context: SiteContext, status: number, title: string, paragraph: string) {
  const page = await renderSitePage(
    context,
    { title, description: null, canonicalPath: null, noindex: true },
    <MessageView address={context.address} title={title} paragraphs={[paragraph]} />,
    { status },
  );
  return sendPage(reply, page, { 'cache-control': 'no-store' });
}

function voterOf(request: FastifyRequest, reply: FastifyReply): string {
  const existing = parseCookies(request.headers.cookie).get(VOTER_COOKIE);
  if (existing && looksLikeSecretToken(existing)) {
    return existing;
  }
  const voter = generateSecretToken();
  reply.header(
    'set-cookie',
    serializeCookie(VOTER_COOKIE, voter, {
      maxAgeSeconds: VOTER_COOKIE_SECONDS,
      httpOnly: true,
      secure: request.protocol === 'https',
      sameSite: 'Lax',
      path: '/',
    }),
  );
  return voter;
}

type FeedbackForm = { helpful?: unknown; comment?: unknown };

async function recordVote(deps: SiteDeps, config: SiteFormConfig, request: FastifyRequest, reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (!context) {
    return reply;
  }
  if (!mayRead(context.helpCenter, context.viewer)) {
    return sendNotFound(reply, context);
  }
  if ((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    return sendMessage(reply, context, 415, 'Vote not recorded', "Send the page's form.");
  }
  if (isCrossSite(request, context, config)) {
    return sendMessage(reply, context, 403, 'Vote not recorded', 'The form was sent from another site.');
  }
  const { helpCenter, viewer } = context;
  const uid = numberOfSegment((request.params as { segment: string }).segment);
  const tree = await visibleCollectionTree(deps.db, helpCenter.organizationId, helpCenter.id, {
    includeProtected: viewer.contact !== null,
  });
  const visibleIds = tree.listingOrder().map((collection) => collection.id);
  const article = uid === undefined ? undefined : await findVisibleArticle(deps.db, helpCenter.organizationId, uid, visibleIds);
  if (!article) {
    return sendNotFound(reply, context);
  }
  const form = (request.body ?? {}) as FeedbackForm;
  const helpful = form.helpful === 'yes' ? true : form.helpful === 'no' ? false : undefined;
  const comment = typeof form.comment === 'string' && form.comment.trim() !== '' ? form.comment : null;
  if (helpful === undefined) {
    return sendMessage(reply, context, 400, 'Vote not recorded', 'Answer Yes or No.');
  }
  if (comment !== null && comment.length > MAX_FEEDBACK_COMMENT) {
    return sendMessage(reply, context, 400, 'Comment too long', `Write at most ${MAX_FEEDBACK_COMMENT} characters.`);
  }
  const counted = await deps.attempts.increment([`hc-vote-address:${request.ip}`], VOTE_WINDOW_MS);
  const count = counted?.[0];
  if (count && count.count > VOTES_PER_ADDRESS) {
    reply.header('retry-after', String(Math.max(1, Math.ceil(count.msLeft / 1000))));
    return sendMessage(reply, context, 429, 'Too many votes', 'Too many votes came from your network. Try again later.');
  }
  await recordArticleFeedback(deps, {
    organizationId: helpCenter.organizationId,
    articleId: article.id,
    voterKey: voterOf(request, reply),
    helpful,
    comment: helpful ? null : comment,
  });
  const state = helpful ? 'yes' : comment === null ? 'no' : 'sent';
  return reply.redirect(`${sitePaths.article(context.address, article)}?feedback=${state}#feedback`, 303);
}

async function sendLogo(deps: SiteDeps, request: FastifyRequest, reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (!context) {
    return reply;
  }
  const { helpCenter } = context;
  const logo = await readHelpCenterLogo(deps, {
    organization_id: helpCenter.organizationId,
    theme: JSON.stringify({ logoAttachmentId: helpCenter.logoAttachmentId }),
  });
  if (!logo) {
    return sendNotFound(reply, context);
  }
  if (request.headers['if-none-match'] === logo.etag) {
    return reply.code(304).header('etag', logo.etag).send();
  }
  return reply
    .headers({
      'content-type': logo.contentType,
      etag: logo.etag,
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    .send(logo.body);
}

/** What the site's pages post (votes), the help center's logo and its articles' images. */
export function registerSiteActionRoutes(app: FastifyInstance, deps: SiteDeps, config: SiteFormConfig): void {
  app.post('/:helpCenterSlug/articles/:segment/feedback', async (request, reply) => {
    try {
      return await recordVote(deps, config, request, reply);
    } catch (error) {
      // Published a moment ago and withdrawn since: the same 404 as any article not shown.
      if (error instanceof AppError && error.status === 404) {
        return sendNotFound(reply, null);
      }
      throw error;
    }
  });
  app.get('/:helpCenterSlug/logo', (request, reply) => sendLogo(deps, request, reply));
  app.get('/:helpCenterSlug/images/:attachmentId', (request, reply) => sendArticleImage(deps, request, reply));
}
