import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import { prepareQuery, prepareQueryByShape } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inJsonArray, joinRowByRow, jsonArrayOf, readJson } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { CollectionTable } from './collection.table.js';
import { MAX_DEPTH } from './collection.tree.js';

type Db = Kysely<DB> | Transaction<DB>;

const COLLECTION_COLUMNS = [
  'help_center_collections.id',
  'help_center_collections.organization_id',
  'help_center_collections.uid',
  'help_center_collections.help_center_id',
  'help_center_collections.parent_id',
  'help_center_collections.name',
  'help_center_collections.slug',
  'help_center_collections.description',
  'help_center_collections.icon',
  'help_center_collections.is_protected',
  'help_center_collections.meta',
  'help_center_collections.position',
  'help_center_collections.created_by',
  'help_center_collections.created_at',
  'help_center_collections.updated_at',
] as const;

export type CollectionRow = CollectionTable;

/** The collection columns of `table`, another name for the collections table or a table holding the same columns. */
const columnsOf = (table: string) => COLLECTION_COLUMNS.map((column) => column.replace('help_center_collections.', `${table}.`));

export async function insertCollection(db: Db, row: CollectionTable): Promise<void> {
  await db.insertInto('help_center_collections').values(row).execute();
}

export async function findCollectionById(db: Db, organizationId: string, id: string): Promise<CollectionRow | undefined> {
  return db
    .selectFrom('help_center_collections')
    .select(COLLECTION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The organization's collections among `ids`. */
export async function findCollectionsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<CollectionRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_collections')
    .select(COLLECTION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
}

/** Every collection of one help center: the whole tree, which a change to it checks against. */
export async function listHelpCenterCollections(db: Db, organizationId: string, helpCenterId: string): Promise<CollectionRow[]> {
  return db
    .selectFrom('help_center_collections')
    .select(COLLECTION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('help_center_id', '=', helpCenterId)
    .execute();
}

interface KeysetPage {
  after?: readonly CursorKey[];
  limit: number;
}

/** A listed collection with its live articles as JSON: `articleIdsOf` reads them. */
export type ListedCollectionRow = CollectionRow & { articles_json: string };

interface TopLevelParams {
  organizationId: string;
  helpCenterId?: string;
  /** Where the page starts: within the help center, after another one, or after keys across all. */
  start: 'first' | 'within' | 'afterHelpCenter' | 'across';
  afterHelpCenterId: string;
  afterPosition: number;
  afterId: string;
  limit: number;
  /** Whether the page's collections come with every collection under them. */
  subtrees: boolean;
}

interface MembershipOfListed {
  article_id: string;
  added_at: string;
  uid: number;
}

/**
 * A page of top-level collections with everything a list answers, in one statement: the page (a
 * range of `help_center_collections_top_level_order`), the first top-level collection after it
 * (whether there is a next page), the subtrees under the page's collections (recursively, a
 * level at a time on `help_center_collections_children_order`, at most `MAX_DEPTH` levels), and
 * each collection's live article ids as JSON. Rows come in no particular order: the caller builds
 * the tree. Compiled once per shape (a help center or all, where the page starts, the page size,
 * written in, with or without subtrees).
 */
const topLevelStatement = prepareQueryByShape<TopLevelParams, ListedCollectionRow>(
  (params) => [params.helpCenterId !== undefined, params.start, params.limit, params.subtrees].join(':'),
  (db, param, shape) => {
    const range = () => {
      let query = db
        .selectFrom('help_center_collections')
        .select(COLLECTION_COLUMNS)
        .where('organization_id', '=', param('organizationId'))
        .where('parent_id', 'is', null);
      if (shape.helpCenterId !== undefined) {
        query = query.where('help_center_id', '=', param('helpCenterId') as string);
      }
      if (shape.start === 'within') {
        // With the help center fixed, the range is on (position, id): SQLite cannot combine an
        // equality with a row value that starts at the same column.
        query = query.where(afterKeys(['position', 'id'], [param('afterPosition'), param('afterId')], 'asc'));
      } else if (shape.start === 'afterHelpCenter') {
        query = query.where('help_center_id', '>', param('afterHelpCenterId'));
      } else if (shape.start === 'across') {
        query = query.where(
          afterKeys(
            ['help_center_id', 'position', 'id'],
            [param('afterHelpCenterId'), param('afterPosition'), param('afterId')],
            'asc',
          ),
        );
      }
      return query.orderBy('help_center_id').orderBy('position').orderBy('id');
    };
    // The whole WITH is recursive when its first table is (see Kysely's `withRecursive`).
    const withPage = db
      .withRecursive('page', () => range().limit(sql.lit(shape.limit)))
      .withRecursive('beyond', () => range().limit(sql.lit(1)).offset(sql.lit(shape.limit)));
    let listed = db.selectFrom('page').selectAll().unionAll(db.selectFrom('beyond').selectAll());
    let query = withPage;
    if (shape.subtrees) {
      // Each level carries its rows' columns (joining the table again by id afterwards leaves the
      // planners to guess the subtree's size), and looks up the children of each collection of the
      // level before, on `help_center_collections_children_order`.
      const childrenOf = (parents: 'page' | 'subtree') =>
        joinRowByRow(db, db.selectFrom(parents), 'help_center_collections', 'child', (eb) =>
          eb.and([
            eb('child.organization_id', '=', param('organizationId')),
            eb('child.parent_id', '=', eb.ref(`${parents}.id`)),
          ]),
        ).select(columnsOf('child'));
      query = withPage.withRecursive('subtree', () =>
        childrenOf('page')
          .select(sql.lit(2).as('depth'))
          .unionAll(
            childrenOf('subtree')
              .select(sql<number>`subtree.depth + 1`.as('depth'))
              .where('subtree.depth', '<', sql.lit(MAX_DEPTH)),
          ),
      );
      listed = listed.unionAll(db.selectFrom('subtree').select(columnsOf('subtree')));
    }
    return query
      .selectFrom(listed.as('listed'))
      .selectAll('listed')
      .select((eb) =>
        jsonArrayOf(
          db,
          eb
            .selectFrom('help_center_article_collections as membership')
            .innerJoin('help_center_articles as article', 'article.id', 'membership.article_id')
            .select(['membership.article_id', 'membership.added_at', 'article.uid'])
            .whereRef('membership.collection_id', '=', 'listed.id')
            .where('article.deleted_at', 'is', null),
        ).as('articles_json'),
      );
  },
);

/**
 * The organization's top-level collections (of one help center when given), by help center id,
 * then order, after the keys `[help_center_id, position, id]`: `limit` of them and the one after,
 * with their subtrees when asked (not the one after's), each with its articles (`articleIdsOf`).
 */
export async function listTopLevelCollections(
  db: Db,
  organizationId: string,
  page: KeysetPage & { helpCenterId?: string; subtrees: boolean },
): Promise<ListedCollectionRow[]> {
  const [afterHelpCenterId, afterPosition, afterId] = page.after ?? [];
  const helpCenterId = page.helpCenterId || undefined;
  let start: TopLevelParams['start'] = 'first';
  if (helpCenterId !== undefined && afterHelpCenterId === helpCenterId) {
    start = 'within';
  } else if (helpCenterId !== undefined && typeof afterHelpCenterId === 'string') {
    start = 'afterHelpCenter';
  } else if (helpCenterId === undefined && page.after) {
    start = 'across';
  }
  const { rows } = await topLevelStatement.execute(db, {
    organizationId,
    helpCenterId,
    start,
    afterHelpCenterId: String(afterHelpCenterId ?? ''),
    afterPosition: Number(afterPosition ?? 0),
    afterId: String(afterId ?? ''),
    limit: page.limit,
    subtrees: page.subtrees,
  });
  return rows;
}

/** The ids of a listed collection's live articles, in the order they were added. */
export function articleIdsOf(row: ListedCollectionRow | undefined): string[] {
  // Most collections of a page hold no article: no parse for those.
  if (!row || row.articles_json === '[]') {
    return [];
  }
  // JSON aggregation keeps no order the databases promise: the order is restored here.
  return (readJson<MembershipOfListed[]>(row.articles_json) ?? [])
    .sort((a, b) => Date.parse(a.added_at) - Date.parse(b.added_at) || Number(a.uid) - Number(b.uid))
    .map((membership) => membership.article_id);
}

/** A page of a collection's children, by order, after the keys `[position, id]`. */
export async function listChildCollections(
  db: Db,
  organizationId: string,
  parentId: string,
  page: KeysetPage,
): Promise<CollectionRow[]> {
  let query = db
    .selectFrom('help_center_collections')
    .select(COLLECTION_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('parent_id', '=', parentId);
  if (page.after) {
    query = query.where(afterKeys(['position', 'id'], page.after, 'asc'));
  }
  return query.orderBy('position').orderBy('id').limit(page.limit).execute();
}

/** Every child of any of `parentIds`: one level of the subtrees under them. */
const childrenOfCollectionsStatement = prepareQuery<{ organizationId: string; parentIds: string }, CollectionRow>(
  (db: Db, param) =>
    db
      .selectFrom('help_center_collections')
      .select(COLLECTION_COLUMNS)
      .where('organization_id', '=', param('organizationId'))
      .where(inJsonArray(db, 'parent_id', param('parentIds'))),
);

/** One compiled statement for any number of parents: the subtree of collections an article search covers, a level at a time. */
export async function listChildrenOfCollections(
  db: Db,
  organizationId: string,
  parentIds: readonly string[],
): Promise<CollectionRow[]> {
  if (parentIds.length === 0) {
    return [];
  }
  const { rows } = await childrenOfCollectionsStatement.execute(db, { organizationId, parentIds: JSON.stringify(parentIds) });
  return rows;
}

export async function updateCollection(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<CollectionTable>,
): Promise<void> {
  await db
    .updateTable('help_center_collections')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export async function deleteCollection(db: Db, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('help_center_collections').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
