import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { compareText } from '../../lib/order.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import type { EventType } from '../../shared/event-types.js';
import { dropCollectionMemberships, listArticlesFiledIn } from '../articles/article-membership.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { nonBlank, optionalNonBlank } from '../help-centers/help-center.input.js';
import { readMeta, writeMeta } from '../help-centers/help-center.meta.js';
import {
  allocateHelpCenterNumber,
  HELP_CENTER_NOT_FOUND,
  lockHelpCenterForUpdate,
  requireHelpCenter,
} from '../help-centers/help-center.service.js';
import { firstFreeSlug, slugify } from '../help-centers/help-center.slug.js';
import { type Node, type Tree, toCollection } from './collection.presenter.js';
import {
  articleIdsOf,
  type CollectionRow,
  deleteCollection,
  findCollectionById,
  findCollectionsByIds,
  insertCollection,
  listChildCollections,
  listChildrenOfCollections,
  listHelpCenterCollections,
  listTopLevelCollections,
  updateCollection,
} from './collection.repository.js';
import type { CreateCollectionSchema, ListCollectionsQuerySchema, UpdateCollectionSchema } from './collection.schemas.js';
import type { CollectionTable } from './collection.table.js';
import { CollectionTree, MAX_DEPTH, placeAt } from './collection.tree.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

/** A change of a collection, in the site's event log: the transaction's last step (see event.recorder.ts). */
async function recordCollectionEvent(trx: Transaction<DB>, deps: Deps, principal: Principal, type: EventType, data: unknown) {
  await recordEvent(trx, deps, principal.organizationId, { type, actor: { type: 'user', id: principal.userId }, data });
}

export const COLLECTION_NOT_FOUND = 'Collection not found';
const DEFAULT_ICON = 'book';

const treeOf = (rows: CollectionRow[]): Tree =>
  new CollectionTree(rows.map((row) => ({ ...row, is_protected: readBoolean(row.is_protected) })));

/** Ids per statement when a query takes a list of them: far below what either database accepts. */
const IDS_PER_QUERY = 1000;

/** `fetch` over `ids` a slice at a time, the results in order. */
async function fetchInSlices<T>(ids: readonly string[], fetch: (slice: readonly string[]) => Promise<T[]>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    for (const result of await fetch(ids.slice(start, start + IDS_PER_QUERY))) {
      results.push(result);
    }
  }
  return results;
}

/** The API objects of `nodes`, each with the ids of the articles it holds; `tree` also holds their ancestors. */
async function present(db: Db, nodes: Node[], tree: Tree) {
  const articles = new Map<string, string[]>();
  const memberships = await fetchInSlices(
    nodes.map((node) => node.id),
    (ids) => listArticlesFiledIn(db, ids),
  );
  for (const row of memberships) {
    const ids = articles.get(row.collection_id);
    if (ids) {
      ids.push(row.article_id);
    } else {
      articles.set(row.collection_id, [row.article_id]);
    }
  }
  return nodes.map((node) => toCollection(node, tree, articles.get(node.id) ?? []));
}

/** The parent, grandparent… of a collection, at most `MAX_DEPTH - 1` lookups: what its protection inherits from. */
async function ancestorsOf(db: Db, organizationId: string, row: CollectionRow): Promise<CollectionRow[]> {
  const ancestors: CollectionRow[] = [];
  for (let parentId = row.parent_id; parentId !== null && ancestors.length < MAX_DEPTH; ) {
    const parent = await findCollectionById(db, organizationId, parentId);
    if (!parent) {
      break;
    }
    ancestors.push(parent);
    parentId = parent.parent_id;
  }
  return ancestors;
}

async function presentOne(db: Db, organizationId: string, id: string) {
  const row = await requireCollection(db, organizationId, id);
  const tree = treeOf([row, ...(await ancestorsOf(db, organizationId, row))]);
  const node = tree.get(id);
  if (!node) {
    throw AppError.notFound(COLLECTION_NOT_FOUND);
  }
  const [collection] = await present(db, [node], tree);
  if (!collection) {
    throw AppError.notFound(COLLECTION_NOT_FOUND);
  }
  return collection;
}

/** The organization's collection, or a 404 (also for another organization's). */
export async function requireCollection(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string) {
  const row = await findCollectionById(db, organizationId, id);
  if (!row) {
    throw AppError.notFound(COLLECTION_NOT_FOUND);
  }
  return row;
}

/**
 * The ids of the organization's collections among `ids` and of every collection under them, one
 * level per query (nesting is at most `MAX_DEPTH` deep). Ids of no collection of the organization
 * are left out.
 */
/** Every id must be a collection of the organization (404 otherwise); an id given twice counts once. */
export async function requireCollectionsExist(db: Kysely<DB> | Transaction<DB>, organizationId: string, ids: readonly string[]) {
  if ((await findCollectionsByIds(db, organizationId, ids)).length !== new Set(ids).size) {
    throw AppError.notFound(COLLECTION_NOT_FOUND);
  }
}

export async function collectionSubtreeIds(db: Kysely<DB>, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set((await findCollectionsByIds(db, organizationId, ids)).map((row) => row.id));
  let level = [...found];
  for (let depth = 1; depth < MAX_DEPTH && level.length > 0; depth++) {
    level = (await listChildrenOfCollections(db, organizationId, level)).map((row) => row.id).filter((id) => !found.has(id));
    for (const id of level) {
      found.add(id);
    }
  }
  return found;
}

/** A parent must be a collection of the organization (404) in the same help center (400), not too deep (400). */
async function requireParent(trx: Transaction<DB>, organizationId: string, tree: Tree, parentId: string, subtreeHeight: number) {
  if (!tree.get(parentId)) {
    if (!(await findCollectionById(trx, organizationId, parentId))) {
      throw AppError.notFound('Parent collection not found');
    }
    throw AppError.invalid('parentId must be a collection of the same help center', {
      location: 'body',
      path: ['parentId'],
      rule: 'reference',
    });
  }
  if (tree.depthOf(parentId) + subtreeHeight > MAX_DEPTH) {
    throw AppError.invalid(`Collections nest at most ${MAX_DEPTH} levels deep`, {
      location: 'body',
      path: ['parentId'],
      rule: 'maxDepth',
    });
  }
}

const siblingSlugs = (tree: Tree, parentId: string | null, exceptId?: string) =>
  tree
    .childrenOf(parentId)
    .filter((sibling) => sibling.id !== exceptId)
    .map((sibling) => sibling.slug);

/** Writes 1, 2, 3… as the positions of `ids` where they changed (`selfId` is written by its caller). */
async function renumber(trx: Transaction<DB>, organizationId: string, tree: Tree, ids: string[], selfId?: string) {
  for (const [index, id] of ids.entries()) {
    if (id !== selfId && tree.get(id)?.position !== index + 1) {
      await updateCollection(trx, organizationId, id, { position: index + 1 });
    }
  }
}

/**
 * Collections are the site's structure and decide which articles need a sign-in (`isProtected`):
 * admins create, change and remove them; members write the articles inside.
 */
export async function createCollection(deps: Deps, principal: Principal, input: Static<typeof CreateCollectionSchema>) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const name = nonBlank(input.name, 'name');
  const description = optionalNonBlank(input.description, 'description') ?? null;
  const icon = optionalNonBlank(input.icon, 'icon') ?? DEFAULT_ICON;
  const parentId = input.parentId ?? null;
  const id = deps.ids.objectId();
  const at = deps.clock.now().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const helpCenter = await lockHelpCenterForUpdate(trx, organizationId, input.helpCenterId);
    if (!helpCenter) {
      throw AppError.notFound(HELP_CENTER_NOT_FOUND);
    }
    const tree = treeOf(await listHelpCenterCollections(trx, organizationId, helpCenter.id));
    if (parentId) {
      await requireParent(trx, organizationId, tree, parentId, 1);
    }
    const siblings = tree.childrenOf(parentId);
    await insertCollection(trx, {
      id,
      organization_id: organizationId,
      uid: await allocateHelpCenterNumber(trx, organizationId, 'collection'),
      help_center_id: helpCenter.id,
      parent_id: parentId,
      name,
      slug: firstFreeSlug(slugify(name, 'collection'), siblingSlugs(tree, parentId)),
      description,
      icon,
      is_protected: input.isProtected ?? false,
      meta: writeMeta(input.meta),
      // Siblings come by position: the new one goes after the last.
      position: (siblings.at(-1)?.position ?? 0) + 1,
      created_by: principal.userId,
      created_at: at,
      updated_at: at,
    });
    const created = await presentOne(trx, organizationId, id);
    await recordCollectionEvent(trx, deps, principal, 'collection.created', created);
    return created;
  });
}

/**
 * A page of top-level collections, by help center id, then `order`, with their subtrees unless
 * `topLevelOnly`, and every listed collection's articles: one statement. An object id begins with
 * its creation second, so help centers come oldest first, as they list.
 */
async function pageOfTopLevel(
  db: Kysely<DB>,
  organizationId: string,
  page: { helpCenterId?: string; cursor?: string; limit: number; topLevelOnly: boolean },
) {
  const after = readTypedCursor(page.cursor, ['text', 'integer', 'text']);
  const rows = await listTopLevelCollections(db, organizationId, {
    helpCenterId: page.helpCenterId,
    after,
    limit: page.limit,
    subtrees: !page.topLevelOnly,
  });
  const topLevel = rows
    .filter((row) => row.parent_id === null)
    .sort((a, b) => compareText(a.help_center_id, b.help_center_id) || a.position - b.position || compareText(a.id, b.id));
  const { items, nextCursor } = keysetPage(topLevel, page.limit, (row) => [row.help_center_id, row.position, row.id]);
  // The collection after the page only tells that there is a next page: it is not listed.
  const beyond = topLevel.length > page.limit ? topLevel.at(-1) : undefined;
  return { items, rows: rows.filter((row) => row !== beyond), nextCursor };
}

/**
 * Keyset pages. Without `parentId`, `limit` counts top-level collections and each comes with its
 * whole subtree, in listing order (see `CollectionTree.listingOrder`) within each help center;
 * `parentId=null` gives the top-level ones alone, a collection id its children, by `order`.
 */
export async function listOrganizationCollections(
  db: Kysely<DB>,
  principal: Principal,
  query: Static<typeof ListCollectionsQuerySchema>,
) {
  const organizationId = principal.organizationId;
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  if (query.parentId !== undefined && query.parentId !== 'null') {
    if (query.helpCenterId) {
      await requireHelpCenter(db, organizationId, query.helpCenterId);
    }
    return pageOfChildren(db, organizationId, { ...query, parentId: query.parentId, limit });
  }
  const topLevelOnly = query.parentId === 'null';
  const page = await pageOfTopLevel(db, organizationId, {
    helpCenterId: query.helpCenterId,
    cursor: query.cursor,
    limit,
    topLevelOnly,
  });
  if (page.items.length === 0 && query.helpCenterId) {
    // Only an empty page tells a help center without collections from one that is not there.
    await requireHelpCenter(db, organizationId, query.helpCenterId);
  }
  const tree = treeOf(page.rows);
  const rowsById = new Map(page.rows.map((row) => [row.id, row]));
  const topLevel = page.items.map((row) => tree.get(row.id)).filter((node) => node !== undefined);
  const listed = topLevelOnly ? topLevel : listingOrderPerHelpCenter(tree, topLevel);
  return {
    items: listed.map((node) => toCollection(node, tree, articleIdsOf(rowsById.get(node.id)))),
    nextCursor: page.nextCursor,
  };
}

/** Top-level collections of different help centers are not siblings: each help center's subtrees are listed in turn. */
function listingOrderPerHelpCenter(tree: Tree, topLevel: Node[]): Node[] {
  const byHelpCenter = new Map<string, Node[]>();
  for (const node of topLevel) {
    const roots = byHelpCenter.get(node.help_center_id);
    if (roots) {
      roots.push(node);
    } else {
      byHelpCenter.set(node.help_center_id, [node]);
    }
  }
  const ordered: Node[] = [];
  for (const roots of byHelpCenter.values()) {
    for (const node of tree.listingOrder(roots)) {
      ordered.push(node);
    }
  }
  return ordered;
}

/** The children of one collection, by `order`; none when `helpCenterId` names another help center. */
async function pageOfChildren(
  db: Kysely<DB>,
  organizationId: string,
  query: { parentId: string; helpCenterId?: string; cursor?: string; limit: number },
) {
  const parent = await requireCollection(db, organizationId, query.parentId);
  const after = readTypedCursor(query.cursor, ['integer', 'text']);
  if (query.helpCenterId !== undefined && query.helpCenterId !== parent.help_center_id) {
    return { items: [], nextCursor: null };
  }
  const rows = await listChildCollections(db, organizationId, parent.id, { after, limit: query.limit + 1 });
  const page = keysetPage(rows, query.limit, (row) => [row.position, row.id]);
  const tree = treeOf([parent, ...(await ancestorsOf(db, organizationId, parent)), ...page.items]);
  const nodes = page.items.map((row) => tree.get(row.id)).filter((node) => node !== undefined);
  return { items: await present(db, nodes, tree), nextCursor: page.nextCursor };
}

export async function getCollection(db: Kysely<DB>, principal: Principal, id: string) {
  return presentOne(db, principal.organizationId, id);
}

/** A move must stay in the help center, out of its own subtree and within the depth limit. */
async function checkMove(trx: Transaction<DB>, organizationId: string, tree: Tree, id: string, parentId: string | null) {
  if (parentId === null) {
    return;
  }
  if (tree.isWithin(parentId, id)) {
    throw AppError.invalid('A collection cannot be moved under itself or one of its descendants', {
      location: 'body',
      path: ['parentId'],
      rule: 'cycle',
    });
  }
  await requireParent(trx, organizationId, tree, parentId, tree.heightOf(id));
}

/** Places `self` among the siblings under `parentId` and closes the gap it leaves; returns its position. */
async function reposition(
  trx: Transaction<DB>,
  organizationId: string,
  tree: Tree,
  self: Node,
  parentId: string | null,
  order?: number,
) {
  const placed = placeAt(
    tree.childrenOf(parentId).map((sibling) => sibling.id),
    self.id,
    order,
  );
  if (parentId !== self.parent_id) {
    const left = tree.childrenOf(self.parent_id).filter((sibling) => sibling.id !== self.id);
    await renumber(
      trx,
      organizationId,
      tree,
      left.map((sibling) => sibling.id),
    );
  }
  await renumber(trx, organizationId, tree, placed, self.id);
  return placed.indexOf(self.id) + 1;
}

/** The column changes of the plain fields; the slug follows a new name (or a new parent). */
function fieldChanges(tree: Tree, self: Node, parentId: string | null, input: Static<typeof UpdateCollectionSchema>, at: string) {
  const changes: Updateable<CollectionTable> = { updated_at: at };
  const name = input.name === undefined ? undefined : nonBlank(input.name, 'name');
  if (name !== undefined && name !== self.name) {
    changes.name = name;
  }
  if (changes.name !== undefined || parentId !== self.parent_id) {
    changes.slug = firstFreeSlug(slugify(changes.name ?? self.name, 'collection'), siblingSlugs(tree, parentId, self.id));
  }
  const description = optionalNonBlank(input.description, 'description');
  if (description !== undefined) {
    changes.description = description;
  }
  const icon = optionalNonBlank(input.icon, 'icon');
  if (icon !== undefined) {
    changes.icon = icon;
  }
  if (input.isProtected !== undefined) {
    changes.is_protected = input.isProtected;
  }
  if (input.meta !== undefined) {
    changes.meta = writeMeta(input.meta, readMeta(self.meta));
  }
  return changes;
}

/**
 * Moving (`parentId`) appends the collection to its new siblings, or puts it at `order`; the old
 * siblings close the gap. Renaming or moving re-derives the slug among the new siblings.
 */
export async function updateCollectionDetails(
  deps: Deps,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateCollectionSchema>,
) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const current = await requireCollection(deps.db, organizationId, id);
  return deps.db.transaction().execute(async (trx) => {
    await lockHelpCenterForUpdate(trx, organizationId, current.help_center_id);
    const tree = treeOf(await listHelpCenterCollections(trx, organizationId, current.help_center_id));
    const self = tree.get(id);
    if (!self) {
      throw AppError.notFound(COLLECTION_NOT_FOUND);
    }
    const parentId = input.parentId === undefined ? self.parent_id : input.parentId;
    const changes = fieldChanges(tree, self, parentId, input, deps.clock.now().toISOString());
    if (parentId !== self.parent_id) {
      await checkMove(trx, organizationId, tree, id, parentId);
    }
    if (parentId !== self.parent_id || input.order !== undefined) {
      changes.parent_id = parentId;
      changes.position = await reposition(trx, organizationId, tree, self, parentId, input.order);
    }
    await updateCollection(trx, organizationId, id, changes);
    const updated = await presentOne(trx, organizationId, id);
    await recordCollectionEvent(trx, deps, principal, 'collection.updated', updated);
    return updated;
  });
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Only an empty collection goes: 409 while it holds sub-collections or (live) articles. */
export async function removeCollection(deps: Deps, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const collection = await presentOne(deps.db, organizationId, id);
  await deps.db.transaction().execute(async (trx) => {
    await lockHelpCenterForUpdate(trx, organizationId, collection.helpCenterId);
    const tree = treeOf(await listHelpCenterCollections(trx, organizationId, collection.helpCenterId));
    const self = tree.get(id);
    if (!self) {
      throw AppError.notFound(COLLECTION_NOT_FOUND);
    }
    const children = tree.childrenOf(id).length;
    const articles = (await listArticlesFiledIn(trx, [id])).length;
    if (children > 0 || articles > 0) {
      const held = [children > 0 ? count(children, 'sub-collection') : '', articles > 0 ? count(articles, 'article') : '']
        .filter(Boolean)
        .join(' and ');
      throw AppError.conflict(`Collection still holds ${held}; move or delete them first`);
    }
    await dropCollectionMemberships(trx, id);
    await deleteCollection(trx, organizationId, id);
    const left = tree.childrenOf(self.parent_id).map((sibling) => sibling.id);
    await renumber(
      trx,
      organizationId,
      tree,
      left.filter((sibling) => sibling !== id),
    );
    await recordCollectionEvent(trx, deps, principal, 'collection.deleted', collection);
  });
  return collection;
}
