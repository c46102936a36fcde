import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { parseSearchQuery, type SearchQuery, SearchQueryError } from '../../lib/search-query.js';
import {
  countCollectionArticles,
  findVisibleArticle,
  listCollectionArticles,
  type PublishedArticle,
  type PublishedArticleSummary,
  type PublishedSearchHit,
  relatedArticles,
  searchVisibleArticles,
} from '../articles/published-article.service.js';
import type { CollectionTree } from '../collections/collection.tree.js';
import { type SiteCollection, visibleCollectionTree } from '../collections/published-collection.service.js';
import { type Meta, readMeta } from '../help-centers/help-center.meta.js';
import type { HelpCenterRow } from '../help-centers/help-center.repository.js';
import { findHelpCenterBySlug } from '../help-centers/help-center.service.js';
import { readTheme } from '../help-centers/help-center.theme.js';
import { collectionSegment, numberOfSegment } from './site-address.js';

/** A help center as its public pages need it. */
export interface SiteHelpCenter {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  /** The host serving its pages at the root, besides `/hc/{slug}` on the shared host. */
  customDomain: string | null;
  isProtected: boolean;
  meta: Meta;
  updatedAt: string;
  theme: SiteTheme;
  logoAttachmentId: string | null;
}

export interface SiteTheme {
  primaryColor: string;
  hasLogo: boolean;
  footerLinks: Array<{ label: string; url: string }>;
}

/** Who reads: anyone, or a customer contact of the organization signed in to this help center. */
export interface SiteViewer {
  contact: { id: string; email: string; name: string | null } | null;
}

export const ANONYMOUS: SiteViewer = { contact: null };

export const COLLECTION_PAGE_SIZE = 50;
export const SEARCH_PAGE_SIZE = 10;
export const MAX_SEARCH_PAGES = 50;
export const MAX_SEARCH_LENGTH = 200;
const RELATED_COUNT = 5;

export async function findSiteHelpCenter(db: Kysely<DB>, slug: string): Promise<SiteHelpCenter | undefined> {
  const row = await findHelpCenterBySlug(db, slug);
  return row ? siteHelpCenterOf(row) : undefined;
}

/** A help center's row as its public pages (and the messenger's reads of them) need it. */
export function siteHelpCenterOf(row: HelpCenterRow): SiteHelpCenter {
  const theme = readTheme(row.theme);
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    slug: row.slug,
    customDomain: row.custom_domain,
    isProtected: readBoolean(row.is_protected),
    meta: readMeta(row.meta),
    updatedAt: row.updated_at,
    theme: { primaryColor: theme.primaryColor, hasLogo: theme.logoAttachmentId !== null, footerLinks: theme.footerLinks },
    logoAttachmentId: theme.logoAttachmentId,
  };
}

/** Whether the viewer may read anything but the sign-in page. */
export const mayRead = (helpCenter: SiteHelpCenter, viewer: SiteViewer) => !helpCenter.isProtected || viewer.contact !== null;

async function treeFor(db: Kysely<DB>, helpCenter: SiteHelpCenter, viewer: SiteViewer) {
  return visibleCollectionTree(db, helpCenter.organizationId, helpCenter.id, { includeProtected: viewer.contact !== null });
}

export interface CollectionCard {
  collection: SiteCollection;
  articleCount: number;
}

/** Each collection with the published articles of its whole visible subtree. */
async function cardsOf(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  tree: CollectionTree<SiteCollection>,
  shown: SiteCollection[],
) {
  const all = tree.listingOrder();
  const direct = await countCollectionArticles(
    db,
    helpCenter.organizationId,
    all.map((collection) => collection.id),
  );
  const total = (collection: SiteCollection): number =>
    (direct.get(collection.id) ?? 0) + tree.childrenOf(collection.id).reduce((sum, child) => sum + total(child), 0);
  return shown.map((collection) => ({ collection, articleCount: total(collection) }));
}

export async function homePage(db: Kysely<DB>, helpCenter: SiteHelpCenter, viewer: SiteViewer) {
  const tree = await treeFor(db, helpCenter, viewer);
  return { collections: await cardsOf(db, helpCenter, tree, tree.childrenOf(null)) };
}

/** The collection and the ones above it, top first. */
function ancestry(tree: CollectionTree<SiteCollection>, collection: SiteCollection): SiteCollection[] {
  const chain: SiteCollection[] = [];
  for (let node: SiteCollection | undefined = collection; node; node = node.parent_id ? tree.get(node.parent_id) : undefined) {
    chain.unshift(node);
  }
  return chain;
}

export type Found<T> = { kind: 'page'; page: T } | { kind: 'moved'; to: { uid: number; slug: string } } | { kind: 'missing' };

/** `12-billing` (its number and slug) or a bare slug unique in the help center. */
function findCollection(tree: CollectionTree<SiteCollection>, segment: string): SiteCollection | undefined {
  const all = tree.listingOrder();
  const uid = numberOfSegment(segment);
  if (uid !== undefined) {
    return all.find((collection) => collection.uid === uid);
  }
  const bySlug = all.filter((collection) => collection.slug === segment);
  return bySlug.length === 1 ? bySlug[0] : undefined;
}

export async function collectionPage(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  viewer: SiteViewer,
  segment: string,
  afterUid: number | undefined,
): Promise<
  Found<{
    collection: SiteCollection;
    trail: SiteCollection[];
    children: CollectionCard[];
    articles: PublishedArticleSummary[];
    nextAfter: number | undefined;
  }>
> {
  const tree = await treeFor(db, helpCenter, viewer);
  const collection = findCollection(tree, segment);
  if (!collection) {
    return { kind: 'missing' };
  }
  if (collectionSegment(collection) !== segment) {
    return { kind: 'moved', to: collection };
  }
  const page = await listCollectionArticles(db, helpCenter.organizationId, collection.id, {
    afterUid,
    limit: COLLECTION_PAGE_SIZE + 1,
  });
  const articles = page.slice(0, COLLECTION_PAGE_SIZE);
  return {
    kind: 'page',
    page: {
      collection,
      trail: ancestry(tree, collection),
      children: await cardsOf(db, helpCenter, tree, tree.childrenOf(collection.id)),
      articles,
      nextAfter: page.length > COLLECTION_PAGE_SIZE ? articles.at(-1)?.uid : undefined,
    },
  };
}

export async function articlePage(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  viewer: SiteViewer,
  segment: string,
): Promise<Found<{ article: PublishedArticle; trail: SiteCollection[]; related: PublishedArticleSummary[] }>> {
  const uid = numberOfSegment(segment);
  if (uid === undefined) {
    return { kind: 'missing' };
  }
  const tree = await treeFor(db, helpCenter, viewer);
  const visible = tree.listingOrder();
  const article = await findVisibleArticle(
    db,
    helpCenter.organizationId,
    uid,
    visible.map((collection) => collection.id),
  );
  if (!article) {
    return { kind: 'missing' };
  }
  if (article.slug !== segment) {
    return { kind: 'moved', to: article };
  }
  // Breadcrumbs follow the first of its collections in the help center's order.
  const home = visible.find((collection) => article.collectionIds.includes(collection.id));
  return {
    kind: 'page',
    page: {
      article,
      trail: home ? ancestry(tree, home) : [],
      related: await relatedArticles(db, helpCenter.organizationId, article, RELATED_COUNT),
    },
  };
}

export type SearchOutcome =
  | { kind: 'empty' }
  | { kind: 'refused'; reason: string }
  | { kind: 'results'; hits: PublishedSearchHit[]; page: number; hasNext: boolean };

/** What a search term must be before it reaches the index: short, printable, a query the parser reads. */
export function readSearchTerm(raw: string): { search: SearchQuery } | { reason: string } | undefined {
  const term = raw.trim();
  if (term === '') {
    return undefined;
  }
  if (term.length > MAX_SEARCH_LENGTH) {
    return { reason: `Search for at most ${MAX_SEARCH_LENGTH} characters.` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(term)) {
    return { reason: 'The search contains characters that cannot be searched for.' };
  }
  try {
    return { search: parseSearchQuery(term) };
  } catch (error) {
    if (error instanceof SearchQueryError) {
      return { reason: `The search ${error.message}.` };
    }
    throw error;
  }
}

export async function searchPage(
  db: Kysely<DB>,
  helpCenter: SiteHelpCenter,
  viewer: SiteViewer,
  input: { q: string; page: number },
): Promise<SearchOutcome> {
  const term = readSearchTerm(input.q);
  if (term === undefined) {
    return { kind: 'empty' };
  }
  if ('reason' in term) {
    return { kind: 'refused', reason: term.reason };
  }
  const tree = await treeFor(db, helpCenter, viewer);
  const page = Math.min(Math.max(input.page, 1), MAX_SEARCH_PAGES);
  const hits = await searchVisibleArticles(db, helpCenter.organizationId, {
    search: term.search,
    collectionIds: tree.listingOrder().map((collection) => collection.id),
    limit: SEARCH_PAGE_SIZE + 1,
    offset: (page - 1) * SEARCH_PAGE_SIZE,
  });
  return {
    kind: 'results',
    hits: hits.slice(0, SEARCH_PAGE_SIZE),
    page,
    hasNext: hits.length > SEARCH_PAGE_SIZE && page < MAX_SEARCH_PAGES,
  };
}
