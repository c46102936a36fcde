import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { ANONYMOUS, articlePage, mayRead, type SiteViewer, searchPage } from '../../help-center/site/site.service.js';
import { canonicalAddress, type SiteAddress, sitePaths } from '../../help-center/site/site-address.js';
import { AppError } from '../../lib/errors.js';
import type { Visitor } from './messenger-visitor.service.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

const ARTICLE_NOT_FOUND = 'Article not found';

/**
 * Who reads, as the public site sees it: a verified visitor reads as its customer contact signed
 * in to the site would (protected collections too); anyone else as an anonymous reader.
 */
function viewerOf(visitor: Visitor | null): SiteViewer {
  return visitor?.contact
    ? { contact: { id: visitor.contact.id, email: visitor.contact.email, name: visitor.contact.name } }
    : ANONYMOUS;
}

/** The public address of an article: on the help center's custom domain when it has one. */
function articleUrl(address: SiteAddress, article: { slug: string }): string {
  const canonical = canonicalAddress(address);
  return sitePaths.absolute(canonical, sitePaths.article(canonical, article));
}

/**
 * A page of the site's full-text search, with the site's visibility: nothing of a protected help
 * center for an anonymous visitor. An empty term finds nothing; a term the site refuses (too
 * long, control characters, a malformed query) is a 400 with the site's reason.
 */
export async function searchArticles(
  db: Kysely<DB>,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor | null,
  input: { q: string; page: number; address: SiteAddress },
) {
  const viewer = viewerOf(visitor);
  const page = input.page;
  if (!mayRead(helpCenter.site, viewer)) {
    return { results: [], page, hasMore: false };
  }
  const outcome = await searchPage(db, helpCenter.site, viewer, { q: input.q, page });
  if (outcome.kind === 'refused') {
    throw AppError.invalid(outcome.reason, { location: 'query', path: ['q'], rule: 'searchQuery' });
  }
  if (outcome.kind === 'empty') {
    return { results: [], page, hasMore: false };
  }
  return {
    results: outcome.hits.map((hit) => ({
      title: hit.title,
      slug: hit.slug,
      excerptHtml: hit.excerpt,
      url: articleUrl(input.address, hit),
    })),
    page: outcome.page,
    hasMore: outcome.hasNext,
  };
}

/**
 * A published article the visitor may read, by its address segment (`12-install-the-app`, as
 * search answers it; an older slug of the same number finds it too). A draft, an article only in
 * protected collections (for an anonymous visitor) or an unknown one is a 404.
 */
export async function readArticle(
  db: Kysely<DB>,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor | null,
  input: { slug: string; address: SiteAddress },
) {
  const viewer = viewerOf(visitor);
  if (!mayRead(helpCenter.site, viewer)) {
    throw AppError.notFound(ARTICLE_NOT_FOUND);
  }
  let found = await articlePage(db, helpCenter.site, viewer, input.slug);
  if (found.kind === 'moved') {
    found = await articlePage(db, helpCenter.site, viewer, found.to.slug);
  }
  if (found.kind !== 'page') {
    throw AppError.notFound(ARTICLE_NOT_FOUND);
  }
  const { article } = found.page;
  return {
    title: article.title,
    slug: article.slug,
    html: article.html,
    url: articleUrl(input.address, article),
    updatedAt: article.updatedAt,
  };
}
