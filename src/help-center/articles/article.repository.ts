import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { escapeLike, inJsonArray, likeOperator } from '../../db/dialect.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { ArticleCollectionTable, ArticleTable } from './article.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const ARTICLE_COLUMNS = [
  'help_center_articles.id',
  'help_center_articles.organization_id',
  'help_center_articles.uid',
  'help_center_articles.title',
  'help_center_articles.description',
  'help_center_articles.slug',
  'help_center_articles.state',
  'help_center_articles.content_html',
  'help_center_articles.content_markdown',
  'help_center_articles.meta',
  'help_center_articles.version_count',
  'help_center_articles.published_title',
  'help_center_articles.published_description',
  'help_center_articles.published_html',
  'help_center_articles.published_by',
  'help_center_articles.published_at',
  'help_center_articles.created_by',
  'help_center_articles.last_edited_by',
  'help_center_articles.last_edited_at',
  'help_center_articles.revision',
  'help_center_articles.created_at',
  'help_center_articles.updated_at',
  'help_center_articles.deleted_at',
] as const;

export type ArticleRow = ArticleTable;

export interface ArticleFilter {
  collectionId?: string;
  helpCenterId?: string;
  state?: ArticleTable['state'];
  tagId?: string;
  /** Words the draft's title or body contains, case-insensitively (drafts are not in the search index). */
  text?: string;
}

export async function insertArticle(db: Db, row: ArticleTable): Promise<void> {
  await db.insertInto('help_center_articles').values(row).execute();
}

/** A live (not deleted) article of the organization. */
export async function findArticleById(db: Db, organizationId: string, id: string): Promise<ArticleRow | undefined> {
  return db
    .selectFrom('help_center_articles')
    .select(ARTICLE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findArticlesByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<ArticleRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_articles')
    .select(ARTICLE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/** A page of the organization's live articles, oldest (lowest uid) first, after the keys `[uid, id]`. */
export async function listArticles(
  db: Db,
  organizationId: string,
  filter: ArticleFilter,
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<ArticleRow[]> {
  let query = db
    .selectFrom('help_center_articles')
    .select(ARTICLE_COLUMNS)
    .where('help_center_articles.organization_id', '=', organizationId)
    .where('help_center_articles.deleted_at', 'is', null);
  if (filter.state) {
    query = query.where('help_center_articles.state', '=', filter.state);
  }
  if (filter.text) {
    const pattern = `%${escapeLike(filter.text)}%`;
    const like = sql.raw(likeOperator(db));
    query = query.where(
      sql<boolean>`(help_center_articles.title ${like} ${pattern} escape '\\' or help_center_articles.content_markdown ${like} ${pattern} escape '\\')`,
    );
  }
  const { collectionId, helpCenterId, tagId } = filter;
  if (collectionId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('help_center_article_collections as membership')
          .select('membership.article_id')
          .whereRef('membership.article_id', '=', 'help_center_articles.id')
          .where('membership.collection_id', '=', collectionId),
      ),
    );
  }
  if (helpCenterId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('help_center_article_collections as membership')
          .innerJoin('help_center_collections as collection', 'collection.id', 'membership.collection_id')
          .select('membership.article_id')
          .whereRef('membership.article_id', '=', 'help_center_articles.id')
          .where('collection.help_center_id', '=', helpCenterId),
      ),
    );
  }
  if (tagId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('help_center_article_tags as tagging')
          .select('tagging.article_id')
          .whereRef('tagging.article_id', '=', 'help_center_articles.id')
          .where('tagging.tag_id', '=', tagId),
      ),
    );
  }
  return inKeysetOrder(query, ['help_center_articles.uid', 'help_center_articles.id'], page.after).limit(page.limit).execute();
}

/** Ids of the organization's live, published articles, optionally in one help center: a search scope. */
export function publishedArticleIds(db: Db, organizationId: string, helpCenterId?: string) {
  let query = db
    .selectFrom('help_center_articles')
    .select('help_center_articles.id')
    .where('help_center_articles.organization_id', '=', organizationId)
    .where('help_center_articles.state', '=', 'published')
    .where('help_center_articles.deleted_at', 'is', null);
  if (helpCenterId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('help_center_article_collections as membership')
          .innerJoin('help_center_collections as collection', 'collection.id', 'membership.collection_id')
          .select('membership.article_id')
          .whereRef('membership.article_id', '=', 'help_center_articles.id')
          .where('collection.help_center_id', '=', helpCenterId),
      ),
    );
  }
  return query;
}

export async function updateArticle(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<ArticleTable>,
): Promise<void> {
  await db
    .updateTable('help_center_articles')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/**
 * Changes the draft and counts one more revision, in one conditional statement: with
 * `expectedRevision`, only if no other save came first. Whether it changed the row.
 */
export async function updateArticleDraftRow(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<ArticleTable>,
  expectedRevision: number | undefined,
): Promise<boolean> {
  let query = db
    .updateTable('help_center_articles')
    .set({ ...changes, revision: sql`revision + 1` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (expectedRevision !== undefined) {
    query = query.where('revision', '=', expectedRevision);
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertArticleCollections(db: Db, rows: ArticleCollectionTable[]): Promise<void> {
  if (rows.length > 0) {
    await db.insertInto('help_center_article_collections').values(rows).execute();
  }
}

export async function deleteArticleCollections(db: Db, articleId: string, collectionIds: readonly string[]): Promise<void> {
  if (collectionIds.length > 0) {
    await db
      .deleteFrom('help_center_article_collections')
      .where('article_id', '=', articleId)
      .where('collection_id', 'in', collectionIds)
      .execute();
  }
}

/** Each article's collections (with their help center), in the order they were added. */
export async function listCollectionsOfArticles(db: Db, articleIds: readonly string[]) {
  if (articleIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_article_collections as membership')
    .innerJoin('help_center_collections as collection', 'collection.id', 'membership.collection_id')
    .select(['membership.article_id', 'membership.collection_id', 'collection.help_center_id'])
    .where('membership.article_id', 'in', articleIds)
    .orderBy('membership.added_at')
    .orderBy('collection.uid')
    .execute();
}

/** The live articles in each collection, in the order they were added. */
const articlesOfCollectionsStatement = prepareQuery<{ collectionIds: string }, { collection_id: string; article_id: string }>(
  (db: Db, param) =>
    db
      .selectFrom('help_center_article_collections as membership')
      .innerJoin('help_center_articles as article', 'article.id', 'membership.article_id')
      .select(['membership.collection_id', 'membership.article_id'])
      .where(inJsonArray(db, 'membership.collection_id', param('collectionIds')))
      .where('article.deleted_at', 'is', null)
      .orderBy('membership.added_at')
      .orderBy('article.uid'),
);

/** One compiled statement for any number of collections (every list of collections asks). */
export async function listArticlesOfCollections(db: Db, collectionIds: readonly string[]) {
  if (collectionIds.length === 0) {
    return [];
  }
  const { rows } = await articlesOfCollectionsStatement.execute(db, { collectionIds: JSON.stringify(collectionIds) });
  return rows;
}

/** Drops a collection's memberships; by then only deleted articles are left in it. */
export async function deleteMembershipsOfCollection(db: Db, collectionId: string): Promise<void> {
  await db.deleteFrom('help_center_article_collections').where('collection_id', '=', collectionId).execute();
}

export async function listTagsOfArticles(db: Db, articleIds: readonly string[]) {
  if (articleIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_article_tags as tagging')
    .innerJoin('help_center_tags as tag', 'tag.id', 'tagging.tag_id')
    .select(['tagging.article_id', 'tagging.tag_id'])
    .where('tagging.article_id', 'in', articleIds)
    .orderBy('tag.lower_name')
    .execute();
}

export async function replaceArticleTags(
  db: Db,
  organizationId: string,
  articleId: string,
  tagIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('help_center_article_tags').where('article_id', '=', articleId).execute();
  if (tagIds.length > 0) {
    await db
      .insertInto('help_center_article_tags')
      .values(tagIds.map((tagId) => ({ article_id: articleId, tag_id: tagId, organization_id: organizationId })))
      .execute();
  }
}

/** Gives the articles tagged `fromTagId` the tag `toTagId` too (those that have it already are left as they are). */
export async function copyArticleTags(db: Db, fromTagId: string, toTagId: string): Promise<void> {
  await db
    .insertInto('help_center_article_tags')
    .columns(['article_id', 'tag_id', 'organization_id'])
    .expression((eb) =>
      eb
        .selectFrom('help_center_article_tags as tagging')
        .select(['tagging.article_id', eb.val(toTagId).as('tag_id'), 'tagging.organization_id'])
        .where('tagging.tag_id', '=', fromTagId),
    )
    .onConflict((conflict) => conflict.columns(['article_id', 'tag_id']).doNothing())
    .execute();
}

export async function deleteArticleTagsOfTag(db: Db, tagId: string): Promise<void> {
  await db.deleteFrom('help_center_article_tags').where('tag_id', '=', tagId).execute();
}
