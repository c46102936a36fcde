import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.js';

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

/**
 * Published articles sharing a tag with the article, most shared tags first, then those in the
 * same collections; bounded scans of the `(tag_id)` and `(collection_id)` indexes, whatever the
 * number of articles.
 */
export async function listRelatedArticles(
  db: Db,
  organizationId: string,
  input: { articleId: string; tagIds: readonly string[]; collectionIds: readonly string[]; limit: number },
): Promise<PublishedSummaryRow[]> {
  const byTags =
    input.tagIds.length === 0
      ? []
      : await published(db)
          .innerJoin('help_center_article_tags as tagging', 'tagging.article_id', 'article.id')
          .innerJoin('help_center_article_collections as membership', 'membership.article_id', 'article.id')
          .select([...SUMMARY_COLUMNS, sql<number>`count(distinct tagging.tag_id)`.as('shared')])
          .where('tagging.tag_id', 'in', input.tagIds)
          .where('membership.collection_id', 'in', input.collectionIds)
          .where('article.organization_id', '=', organizationId)
          .where('article.id', '!=', input.articleId)
          .groupBy(SUMMARY_COLUMNS)
          .orderBy('shared', 'desc')
          .orderBy('article.uid')
          .limit(input.limit)
          .execute();
  if (byTags.length >= input.limit) {
    return byTags;
  }
  const taken = new Set([input.articleId, ...byTags.map((row) => row.id)]);
  const neighbours = await published(db)
    .innerJoin('help_center_article_collections as membership', 'membership.article_id', 'article.id')
    .select(SUMMARY_COLUMNS)
    .distinct()
    .where('membership.collection_id', 'in', input.collectionIds)
    .where('article.organization_id', '=', organizationId)
    .where('article.id', 'not in', [...taken])
    .orderBy('article.uid')
    .limit(input.limit)
    .execute();
  return [...byTags, ...neighbours].slice(0, input.limit);
}

/** Ids of the published articles in any of `collectionIds`: the scope of a search of the site. */
export function publishedArticleIdsInCollections(db: Db, organizationId: string, collectionIds: readonly string[]) {
  return published(db)
    .innerJoin('help_center_article_collections as membership', 'membership.article_id', 'article.id')
    .select('article.id')
    .where('article.organization_id', '=', organizationId)
    .where('membership.collection_id', 'in', collectionIds.length > 0 ? collectionIds : [''])
    .distinct();
}

export async function findPublishedSummaries(db: Db, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) {
    return [];
  }
  return published(db)
    .select(SUMMARY_COLUMNS)
    .where('article.organization_id', '=', organizationId)
    .where('article.id', 'in', ids)
    .execute();
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
