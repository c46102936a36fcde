import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import {
  copyArticleTags,
  deleteArticleTagsOfTag,
  deleteMembershipsOfCollection,
  listArticlesOfCollections,
} from './article.repository.js';

// What collections and tags hold of articles, for their services: apart from article.service,
// which imports both of them (so they cannot import it back).

type Db = Kysely<DB> | Transaction<DB>;

/** The live articles filed in each of the collections (one row per membership). */
export async function listArticlesFiledIn(db: Db, collectionIds: readonly string[]) {
  return listArticlesOfCollections(db, collectionIds);
}

/** Drops a collection's memberships, in the transaction that deletes it; by then only deleted articles are left in it. */
export async function dropCollectionMemberships(trx: Db, collectionId: string): Promise<void> {
  await deleteMembershipsOfCollection(trx, collectionId);
}

/** Takes a tag off every article, in the transaction that deletes the tag. */
export async function dropTagFromArticles(trx: Db, tagId: string): Promise<void> {
  await deleteArticleTagsOfTag(trx, tagId);
}

/** Moves a tag's articles to another tag (in the transaction that merges the first into the second). */
export async function moveTagOnArticles(trx: Db, fromTagId: string, toTagId: string): Promise<void> {
  await copyArticleTags(trx, fromTagId, toTagId);
  await deleteArticleTagsOfTag(trx, fromTagId);
}
