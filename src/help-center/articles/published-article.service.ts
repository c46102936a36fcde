import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { searchFullTextWithin } from '../../db/full-text.js';
import type { SearchQuery } from '../../lib/search-query.js';
import { type Meta, readMeta } from '../help-centers/help-center.meta.js';
import {
  countPublishedArticlesInCollections,
  countPublishedArticlesOfCollections,
  findLiveArticlesIn,
  findPublishedArticleRowByUid,
  findPublishedSummaries,
  listMembershipsOfArticles,
  listPublishedArticleAddresses,
  listPublishedArticlesOfCollection,
  listRelatedArticleIds,
  listTagIdsOfArticle,
  type PublishedSummaryRow,
  publishedHtmlShows,
} from './published-article.repository.js';

/**
 * What readers of a help center see of its articles: the published version of live, published
 * articles, within the collections the caller says the reader may see. Used by the public site.
 */
export interface PublishedArticleSummary {
  id: string;
  uid: number;
  slug: string;
  title: string;
  description: string | null;
  publishedAt: string;
  meta: Meta;
}

export interface PublishedArticle extends PublishedArticleSummary {
  html: string;
  updatedAt: string;
  /** The article's collections among those the caller could see. */
  collectionIds: string[];
  tagIds: string[];
}

export interface PublishedSearchHit extends PublishedArticleSummary {
  /** HTML-escaped passage with the matched words in `<mark>`. */
  excerpt: string;
}

const SEARCH_INDEX = 'help_center_article_search';

function toSummary(row: PublishedSummaryRow): PublishedArticleSummary {
  return {
    id: row.id,
    uid: row.uid,
    slug: row.slug,
    title: row.published_title ?? '',
    description: row.published_description,
    publishedAt: row.published_at ?? '',
    meta: readMeta(row.meta),
  };
}

/** `rows` in the order of `ids` (those absent dropped). */
function inOrder(ids: readonly string[], rows: PublishedSummaryRow[]): PublishedSummaryRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The article numbered `uid`, when it is published and in one of `visibleCollectionIds`. */
export async function findVisibleArticle(
  db: Kysely<DB>,
  organizationId: string,
  uid: number,
  visibleCollectionIds: readonly string[],
): Promise<PublishedArticle | undefined> {
  const row = await findPublishedArticleRowByUid(db, organizationId, uid);
  if (!row || row.published_html === null) {
    return undefined;
  }
  const memberships = await listMembershipsOfArticles(db, [row.id], visibleCollectionIds);
  if (memberships.length === 0) {
    return undefined;
  }
  return {
    ...toSummary(row),
    html: row.published_html,
    updatedAt: row.published_at ?? row.updated_at,
    collectionIds: memberships.map((membership) => membership.collection_id),
    tagIds: await listTagIdsOfArticle(db, row.id),
  };
}

export async function listCollectionArticles(
  db: Kysely<DB>,
  organizationId: string,
  collectionId: string,
  page: { afterUid?: number; limit: number },
): Promise<PublishedArticleSummary[]> {
  return (await listPublishedArticlesOfCollection(db, organizationId, collectionId, page)).map(toSummary);
}

/** Published articles directly in each collection; collections without any are absent. */
export async function countCollectionArticles(
  db: Kysely<DB>,
  organizationId: string,
  collectionIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = await countPublishedArticlesOfCollections(db, organizationId, collectionIds);
  return new Map(rows.map((row) => [row.collection_id, Number(row.count)]));
}

export async function relatedArticles(
  db: Kysely<DB>,
  organizationId: string,
  article: Pick<PublishedArticle, 'id' | 'tagIds' | 'collectionIds'>,
  limit: number,
): Promise<PublishedArticleSummary[]> {
  const ids = await listRelatedArticleIds(db, organizationId, {
    articleId: article.id,
    tagIds: article.tagIds,
    collectionIds: article.collectionIds,
    limit,
  });
  return inOrder(ids, await findPublishedSummaries(db, organizationId, ids)).map(toSummary);
}

/** Best matches first among the published articles of `collectionIds`, a page at a time. */
export async function searchVisibleArticles(
  db: Kysely<DB>,
  organizationId: string,
  input: { search: SearchQuery; collectionIds: readonly string[]; limit: number; offset: number },
): Promise<PublishedSearchHit[]> {
  if (input.collectionIds.length === 0) {
    return [];
  }
  const hits = await searchFullTextWithin(db, SEARCH_INDEX, {
    organizationId,
    search: input.search,
    limit: input.limit,
    offset: input.offset,
    // The organization's published articles in the visible collections.
    keep: async (ids) =>
      new Set((await findLiveArticlesIn(db, organizationId, ids, input.collectionIds)).map((article) => article.id)),
  });
  const rows = new Map(
    (
      await findPublishedSummaries(
        db,
        organizationId,
        hits.map((hit) => hit.documentId),
      )
    ).map((row) => [row.id, row]),
  );
  return hits.flatMap((hit) => {
    const row = rows.get(hit.documentId);
    return row ? [{ ...toSummary(row), excerpt: hit.excerpt }] : [];
  });
}

/** Where a published article is and when it was published: a line of a sitemap. */
export interface PublishedArticleAddress {
  uid: number;
  slug: string;
  publishedAt: string;
}

/** How many published articles `collectionIds` hold between them (an article in two counts once). */
export function countVisibleArticles(db: Kysely<DB>, organizationId: string, collectionIds: readonly string[]) {
  return countPublishedArticlesInCollections(db, organizationId, collectionIds);
}

/** Rows read per query by `visibleArticleAddresses`: a page of a sitemap never sits in memory whole. */
const ADDRESS_RUN = 1_000;

/**
 * The published articles of `collectionIds` by uid, `range.count` of them after skipping
 * `range.offset`: read in runs, the first skipping, the others following the last uid read.
 */
export async function* visibleArticleAddresses(
  db: Kysely<DB>,
  organizationId: string,
  collectionIds: readonly string[],
  range: { offset: number; count: number },
): AsyncGenerator<PublishedArticleAddress> {
  let left = range.count;
  let afterUid: number | undefined;
  while (left > 0) {
    const limit = Math.min(left, ADDRESS_RUN);
    const rows = await listPublishedArticleAddresses(
      db,
      organizationId,
      collectionIds,
      afterUid === undefined ? { offset: range.offset, limit } : { afterUid, limit },
    );
    for (const row of rows) {
      yield { uid: row.uid, slug: row.slug, publishedAt: row.published_at ?? '' };
    }
    if (rows.length < limit) {
      return;
    }
    left -= rows.length;
    afterUid = rows.at(-1)?.uid;
  }
}

/** The `src` the console's editor gives an uploaded image: the attachment's own address, read with a session. */
export const editorImageSrc = (attachmentId: string) => `/v1/attachments/${attachmentId}`;

/**
 * Whether an uploaded image shows in an article a reader may see: published, live, in one of the
 * collections they may read. A draft's image, or one of another help center, is not public.
 */
export async function isImageOfVisibleArticle(
  db: Kysely<DB>,
  organizationId: string,
  attachmentId: string,
  collectionIds: readonly string[],
): Promise<boolean> {
  return publishedHtmlShows(db, organizationId, collectionIds, editorImageSrc(attachmentId));
}
