import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { escapeLike } from '../../db/dialect.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The reads of the public help-center site: published, live articles only, and only their
 * published version (a draft's title or body never leaves through these).
 */
const SUMMARY_COLUMNS = [
  'article.id',
  'article.uid',
  'article.slug',
  'article.published_title',
  'article.published_description',
  'article.published_at',
  'article.meta',
] as const;

export interface PublishedSummaryRow {
  id: string;
  uid: number;
  slug: string;
  published_title: string | null;
  published_description: string | null;
  published_at: string | null;
  meta: string;
}

const published = (db: Db) =>
  db
    .selectFrom('help_center_articles as article')
    .where('article.state', '=', 'published')
    .where('article.deleted_at', 'is', null);

export async function findPublishedArticleRowByUid(db: Db, organizationId: string, uid: number) {
  return published(db)
    .select([...SUMMARY_COLUMNS, 'article.published_html', 'article.updated_at'])
    .where('article.organization_id', '=', organizationId)
    .where('article.uid', '=', uid)
    .executeTakeFirst();
}

/** A page of one collection's published articles, lowest uid first, after `afterUid`. */
export async function listPublishedArticlesOfCollection(
  db: Db,
  organizationId: string,
  collectionId: string,
  page: { afterUid?: number; limit: number },
): Promise<PublishedSummaryRow[]> {
  let query = published(db)
    .innerJoin('help_center_article_collections as membership', 'membership.article_id', 'article.id')
    .select(SUMMARY_COLUMNS)
    .where('membership.collection_id', '=', collectionId)
    .where('article.organization_id', '=', organizationId);
  if (page.afterUid !== undefined) {
    query = query.where('article.uid', '>', page.afterUid);
  }
  return query.orderBy('article.uid').limit(page.limit).execute();
}

/** How many published articles each collection holds directly. */
export async function countPublishedArticlesOfCollections(db: Db, organizationId: string, collectionIds: readonly string[]) {
  if (collectionIds.length === 0) {
    return [];
  }
  return published(db)
    .innerJoin('help_center_article_collections as membership', 'membership.article_id', 'article.id')
    .select(['membership.collection_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('membership.collection_id', 'in', collectionIds)
    .where('article.organization_id', '=', organizationId)
    .groupBy('membership.collection_id')
    .execute();
}

/** Which of `collectionIds` each article is in. */
export async function listMembershipsOfArticles(db: Db, articleIds: readonly string[], collectionIds: readonly string[]) {
  if (articleIds.length === 0 || collectionIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_article_collections')
    .select(['article_id', 'collection_id'])
    .where('article_id', 'in', articleIds)
    .where('collection_id', 'in', collectionIds)
    .execute();
}

export async function listTagIdsOfArticle(db: Db, articleId: string): Promise<string[]> {
  const rows = await db.selectFrom('help_center_article_tags').select('tag_id').where('article_id', '=', articleId).execute();
  return rows.map((row) => row.tag_id);
}

/** Candidates read per tag and per collection for related articles: bounded, however many share it. */
const RELATED_CANDIDATES = 20;

/**
 * Published articles sharing a tag with the article, most shared tags first, then those in the
 * same collections, lowest number first; ids only. Each tag and each collection gives at most 20
 * candidates (the first of its index, so the same ones every time): reading every article of a
 * popular tag, or letting SQLite's planner walk the organization's articles (it has no statistics),
 * made the article page take 0.9 s at 100,000 articles.
 */
export async function listRelatedArticleIds(
  db: Db,
  organizationId: string,
  input: { articleId: string; tagIds: readonly string[]; collectionIds: readonly string[]; limit: number },
): Promise<string[]> {
  const shared = new Map<string, number>();
  for (const tagId of input.tagIds) {
    const rows = await db
      .selectFrom('help_center_article_tags')
      .select('article_id')
      .where('tag_id', '=', tagId)
      .limit(RELATED_CANDIDATES)
      .execute();
    for (const row of rows) {
      shared.set(row.article_id, (shared.get(row.article_id) ?? 0) + 1);
    }
  }
  shared.delete(input.articleId);
  const byUid = (a: LiveArticle, b: LiveArticle) => a.uid - b.uid;
  const byTags = (await findLiveArticlesIn(db, organizationId, [...shared.keys()], input.collectionIds))
    .sort((a, b) => (shared.get(b.id) ?? 0) - (shared.get(a.id) ?? 0) || byUid(a, b))
    .slice(0, input.limit)
    .map((article) => article.id);
  if (byTags.length >= input.limit || input.collectionIds.length === 0) {
    return byTags;
  }
  const taken = new Set([input.articleId, ...byTags]);
  const neighbours = await db
    .selectFrom('help_center_article_collections')
    .select('article_id')
    .where('collection_id', 'in', input.collectionIds)
    .limit(RELATED_CANDIDATES * input.collectionIds.length)
    .execute();
  const candidates = [...new Set(neighbours.map((row) => row.article_id))].filter((id) => !taken.has(id));
  const more = (await findLiveArticlesIn(db, organizationId, candidates, input.collectionIds)).sort(byUid);
  return [...byTags, ...more.map((article) => article.id)].slice(0, input.limit);
}

export interface LiveArticle {
  id: string;
  uid: number;
}

/**
 * Of `ids`, the published articles of the organization in any of `collectionIds`, with their
 * numbers. Read by primary key alone, then kept: with the organization and state in the WHERE
 * clause, SQLite without statistics reads the organization's published articles through their
 * index instead (35 ms at 100,000, for ten ids). The summaries are read for the chosen few only.
 */
export async function findLiveArticlesIn(
  db: Db,
  organizationId: string,
  ids: readonly string[],
  collectionIds: readonly string[],
): Promise<LiveArticle[]> {
  if (ids.length === 0 || collectionIds.length === 0) {
    return [];
  }
  const visible = [...new Set((await listMembershipsOfArticles(db, ids, collectionIds)).map((row) => row.article_id))];
  if (visible.length === 0) {
    return [];
  }
  const rows = await db
    .selectFrom('help_center_articles')
    .select(['id', 'uid', 'organization_id', 'state', 'deleted_at'])
    .where('id', 'in', visible)
    .execute();
  return rows
    .filter((row) => row.organization_id === organizationId && row.state === 'published' && row.deleted_at === null)
    .map((row) => ({ id: row.id, uid: row.uid }));
}

/** The published, live articles of the organization among `ids`, read by primary key alone (as above). */
export async function findPublishedSummaries(db: Db, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .selectFrom('help_center_articles as article')
    .select([...SUMMARY_COLUMNS, 'article.organization_id', 'article.state', 'article.deleted_at'])
    .where('article.id', 'in', ids)
    .execute();
  return rows
    .filter((row) => row.organization_id === organizationId && row.state === 'published' && row.deleted_at === null)
    .map(({ organization_id, state, deleted_at, ...summary }): PublishedSummaryRow => summary);
}

/** Published articles in any of `collectionIds`, each once, however many of them hold it. */
const publishedInCollections = (db: Db, organizationId: string, collectionIds: readonly string[]) =>
  published(db)
    .where('article.organization_id', '=', organizationId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('help_center_article_collections as membership')
          .select(sql.lit(1).as('one'))
          .whereRef('membership.article_id', '=', 'article.id')
          .where('membership.collection_id', 'in', collectionIds.length > 0 ? collectionIds : ['']),
      ),
    );

export async function countPublishedArticlesInCollections(
  db: Db,
  organizationId: string,
  collectionIds: readonly string[],
): Promise<number> {
  if (collectionIds.length === 0) {
    return 0;
  }
  const row = await publishedInCollections(db, organizationId, collectionIds)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface PublishedAddressRow {
  uid: number;
  slug: string;
  published_at: string | null;
}

/**
 * A run of the published articles in `collectionIds`, lowest uid first: after `afterUid` (a keyset
 * on the `(organization_id, uid)` index), or skipping `offset` of them for the first run of a page.
 */
export async function listPublishedArticleAddresses(
  db: Db,
  organizationId: string,
  collectionIds: readonly string[],
  run: { afterUid?: number; offset?: number; limit: number },
): Promise<PublishedAddressRow[]> {
  if (collectionIds.length === 0 || run.limit <= 0) {
    return [];
  }
  let query = publishedInCollections(db, organizationId, collectionIds).select([
    'article.uid',
    'article.slug',
    'article.published_at',
  ]);
  if (run.afterUid !== undefined) {
    query = query.where('article.uid', '>', run.afterUid);
  }
  query = query.orderBy('article.uid').limit(run.limit);
  return (run.offset ? query.offset(run.offset) : query).execute();
}

/**
 * Whether a live article published in one of the collections shows `src` (an exact `src="…"`
 * attribute of its published HTML): what makes an uploaded image public.
 */
export async function publishedHtmlShows(
  db: Db,
  organizationId: string,
  collectionIds: readonly string[],
  src: string,
): Promise<boolean> {
  if (collectionIds.length === 0) {
    return false;
  }
  const row = await db
    .selectFrom('help_center_articles as article')
    .select('article.id')
    .where('article.organization_id', '=', organizationId)
    .where('article.state', '=', 'published')
    .where('article.deleted_at', 'is', null)
    .where(sql<boolean>`article.published_html like ${`%src="${escapeLike(src)}"%`} escape '\\'`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('help_center_article_collections as membership')
          .select('membership.article_id')
          .whereRef('membership.article_id', '=', 'article.id')
          .where('membership.collection_id', 'in', collectionIds),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
