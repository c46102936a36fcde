import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { removeFullTextEntry, searchFullText, writeFullTextEntry } from '../../db/full-text.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { parseSearchQuery, type SearchQuery, SearchQueryError } from '../../lib/search-query.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { countArticleFeedback } from '../article-feedback/article-feedback.service.js';
import { requireCollection, requireCollectionsExist } from '../collections/collection.service.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { nonBlank, optionalNonBlank } from '../help-centers/help-center.input.js';
import { readMeta, writeMeta } from '../help-centers/help-center.meta.js';
import { allocateHelpCenterNumber, requireHelpCenter } from '../help-centers/help-center.service.js';
import { slugify } from '../help-centers/help-center.slug.js';
import { requireTagsExist } from '../tags/tag.service.js';
import { articleText, deriveArticleContent } from './article.content.js';
import { hasDraftChanges, type Placement, toArticle } from './article.presenter.js';
import {
  type ArticleRow,
  deleteArticleCollections,
  findArticleById,
  findArticlesByIds,
  insertArticle,
  insertArticleCollections,
  listArticles,
  listCollectionsOfArticles,
  listTagsOfArticles,
  publishedArticleIds,
  replaceArticleTags,
  updateArticle,
  updateArticleDraftRow,
} from './article.repository.js';
import type {
  CreateArticleSchema,
  ListArticlesQuerySchema,
  SearchArticlesQuerySchema,
  UpdateArticleSchema,
} from './article.schemas.js';
import type { ArticleTable } from './article.table.js';
import { staleRevisionError } from './article-conflict.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

export const ARTICLE_NOT_FOUND = 'Article not found';
const SEARCH_INDEX = 'help_center_article_search';

const articleSlug = (uid: number, title: string) => `${uid}-${slugify(title, 'article')}`;

/** Each article's collections, help centers and tags. */
async function placementsOf(db: Db, articleIds: string[]): Promise<Map<string, Placement>> {
  const placements = new Map<string, Placement>(articleIds.map((id) => [id, { collections: [], helpCenters: [], tags: [] }]));
  for (const row of await listCollectionsOfArticles(db, articleIds)) {
    const placement = placements.get(row.article_id);
    placement?.collections.push(row.collection_id);
    if (placement && !placement.helpCenters.includes(row.help_center_id)) {
      placement.helpCenters.push(row.help_center_id);
    }
  }
  for (const row of await listTagsOfArticles(db, articleIds)) {
    placements.get(row.article_id)?.tags.push(row.tag_id);
  }
  return placements;
}

async function present(db: Db, rows: ArticleRow[]) {
  const ids = rows.map((row) => row.id);
  const placements = await placementsOf(db, ids);
  const feedback = await countArticleFeedback(db, ids);
  return rows.map((row) => toArticle(row, placements.get(row.id), feedback.get(row.id)));
}

async function requireArticle(db: Db, organizationId: string, id: string): Promise<ArticleRow> {
  const row = await findArticleById(db, organizationId, id);
  if (!row) {
    throw AppError.notFound(ARTICLE_NOT_FOUND);
  }
  return row;
}

async function presentOne(db: Db, organizationId: string, id: string) {
  const [article] = await present(db, [await requireArticle(db, organizationId, id)]);
  if (!article) {
    throw AppError.notFound(ARTICLE_NOT_FOUND);
  }
  return article;
}

export async function createArticle(deps: Deps, principal: Principal, input: Static<typeof CreateArticleSchema>) {
  const organizationId = principal.organizationId;
  const title = nonBlank(input.title, 'title');
  const description = optionalNonBlank(input.description, 'description') ?? null;
  const content = (await deriveArticleContent(input)) ?? { html: '', markdown: '' };
  const collection = await requireCollection(deps.db, organizationId, input.collectionId);
  const tagIds = input.tags ?? [];
  await requireTagsExist(deps.db, organizationId, tagIds);
  const id = deps.ids.objectId();
  const at = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const uid = await allocateHelpCenterNumber(trx, organizationId, 'article');
    await insertArticle(trx, {
      id,
      organization_id: organizationId,
      uid,
      title,
      description,
      slug: articleSlug(uid, title),
      state: 'draft',
      content_html: content.html,
      content_markdown: content.markdown,
      meta: writeMeta(input.meta),
      version_count: 0,
      published_title: null,
      published_description: null,
      published_html: null,
      published_by: null,
      published_at: null,
      created_by: principal.userId,
      last_edited_by: principal.userId,
      last_edited_at: at,
      revision: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    });
    await insertArticleCollections(trx, [
      { article_id: id, collection_id: collection.id, organization_id: organizationId, added_at: at },
    ]);
    await replaceArticleTags(trx, organizationId, id, tagIds);
  });
  return presentOne(deps.db, organizationId, id);
}

/** Live articles, lowest uid first (a keyset page); an unknown collection, help center or tag in a filter is a 404. */
export async function listOrganizationArticles(
  db: Kysely<DB>,
  principal: Principal,
  query: Static<typeof ListArticlesQuerySchema>,
) {
  const organizationId = principal.organizationId;
  if (query.collectionId) {
    await requireCollection(db, organizationId, query.collectionId);
  }
  if (query.helpCenterId) {
    await requireHelpCenter(db, organizationId, query.helpCenterId);
  }
  if (query.tag) {
    await requireTagsExist(db, organizationId, [query.tag]);
  }
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readTypedCursor(query.cursor, ['integer', 'text']);
  const filter = {
    collectionId: query.collectionId,
    helpCenterId: query.helpCenterId,
    state: query.state,
    tagId: query.tag,
    text: query.q?.trim() || undefined,
  };
  const rows = await listArticles(db, organizationId, filter, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.uid, row.id]);
  return { items: await present(db, page.items), nextCursor: page.nextCursor };
}

export async function getArticle(db: Kysely<DB>, principal: Principal, id: string) {
  return presentOne(db, principal.organizationId, id);
}

/** The collections after adding and removing; an article stays in at least one. */
async function nextCollections(db: Db, organizationId: string, current: string[], input: Static<typeof UpdateArticleSchema>) {
  const add = input.addToCollections ?? [];
  const remove = input.removeFromCollections ?? [];
  if (add.some((id) => remove.includes(id))) {
    throw AppError.invalid('A collection cannot be both added and removed', {
      location: 'body',
      path: ['removeFromCollections'],
      rule: 'conflict',
    });
  }
  await requireCollectionsExist(db, organizationId, [...add, ...remove]);
  const toAdd = add.filter((id) => !current.includes(id));
  const toRemove = remove.filter((id) => current.includes(id));
  if (current.length + toAdd.length - toRemove.length === 0) {
    throw AppError.invalid('An article must stay in at least one collection', {
      location: 'body',
      path: ['removeFromCollections'],
      rule: 'minItems',
    });
  }
  return { toAdd, toRemove };
}

/** Edits the draft; the published version changes only on publish. */
export async function updateArticleDraft(
  deps: Deps,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateArticleSchema>,
) {
  const organizationId = principal.organizationId;
  const article = await requireArticle(deps.db, organizationId, id);
  const title = input.title === undefined ? undefined : nonBlank(input.title, 'title');
  const description = optionalNonBlank(input.description, 'description');
  const content = await deriveArticleContent(input);
  const placement = (await placementsOf(deps.db, [id])).get(id);
  const { toAdd, toRemove } = await nextCollections(deps.db, organizationId, placement?.collections ?? [], input);
  if (input.tags) {
    await requireTagsExist(deps.db, organizationId, input.tags);
  }
  const at = deps.clock.now().toISOString();
  const changes: Updateable<ArticleTable> = { updated_at: at, last_edited_at: at, last_edited_by: principal.userId };
  if (title !== undefined) {
    changes.title = title;
    changes.slug = articleSlug(article.uid, title);
  }
  if (description !== undefined) {
    changes.description = description;
  }
  if (content) {
    changes.content_html = content.html;
    changes.content_markdown = content.markdown;
  }
  if (input.meta !== undefined) {
    changes.meta = writeMeta(input.meta, readMeta(article.meta));
  }
  // A published article's address, collections, tags and page metadata are live: readers see them at once.
  const seenByReaders =
    article.state === 'published' &&
    ((changes.slug !== undefined && changes.slug !== article.slug) ||
      toAdd.length + toRemove.length > 0 ||
      input.tags !== undefined ||
      input.meta !== undefined);
  return deps.db.transaction().execute(async (trx) => {
    // First, so a save on a replaced revision writes nothing (and two saves on one revision cannot both win).
    if (!(await updateArticleDraftRow(trx, organizationId, id, changes, input.ifRevision))) {
      throw await staleRevisionError(trx, organizationId, id, ARTICLE_NOT_FOUND);
    }
    await deleteArticleCollections(trx, id, toRemove);
    await insertArticleCollections(
      trx,
      toAdd.map((collectionId) => ({
        article_id: id,
        collection_id: collectionId,
        organization_id: organizationId,
        added_at: at,
      })),
    );
    if (input.tags) {
      await replaceArticleTags(trx, organizationId, id, input.tags);
    }
    const updated = await presentOne(trx, organizationId, id);
    if (seenByReaders) {
      await recordEvent(trx, deps, organizationId, {
        type: 'article.updated',
        actor: { type: 'user', id: principal.userId },
        data: updated,
      });
    }
    return updated;
  });
}

/**
 * Copies the draft into the published version (its number goes up by one) and into the search
 * index. Publishing an unchanged published article changes nothing.
 */
export async function publishArticle(deps: Deps, principal: Principal, id: string) {
  const organizationId = principal.organizationId;
  const article = await requireArticle(deps.db, organizationId, id);
  if (article.state === 'published' && !hasDraftChanges(article)) {
    return presentOne(deps.db, organizationId, id);
  }
  const at = deps.clock.now().toISOString();
  // A description without closing punctuation would run into the body's first sentence in excerpts.
  const description =
    article.description && !/[.!?\u2026:]$/.test(article.description) ? `${article.description}.` : article.description;
  const body = [description ?? '', await articleText(article.content_html)].filter(Boolean).join('\n\n');
  return deps.db.transaction().execute(async (trx) => {
    await updateArticle(trx, organizationId, id, {
      state: 'published',
      version_count: article.version_count + 1,
      published_title: article.title,
      published_description: article.description,
      published_html: article.content_html,
      published_by: principal.userId,
      published_at: at,
      updated_at: at,
    });
    await writeFullTextEntry(trx, SEARCH_INDEX, { documentId: id, organizationId, title: article.title, body });
    const published = await presentOne(trx, organizationId, id);
    await recordEvent(trx, deps, organizationId, {
      type: 'article.published',
      actor: { type: 'user', id: principal.userId },
      data: published,
    });
    return published;
  });
}

/** Back to draft: the published version is withdrawn and leaves the search index; the draft stays. */
export async function unpublishArticle(deps: Deps, principal: Principal, id: string) {
  const organizationId = principal.organizationId;
  return deps.db.transaction().execute(async (trx) => {
    const before = await requireArticle(trx, organizationId, id);
    await updateArticle(trx, organizationId, id, {
      state: 'draft',
      published_title: null,
      published_description: null,
      published_html: null,
      published_by: null,
      published_at: null,
      updated_at: deps.clock.now().toISOString(),
    });
    await removeFullTextEntry(trx, SEARCH_INDEX, id);
    const draft = await presentOne(trx, organizationId, id);
    // Only a withdrawal is an event: unpublishing a draft changes nothing a reader cares about.
    if (before.state === 'published') {
      await recordEvent(trx, deps, organizationId, {
        type: 'article.unpublished',
        actor: { type: 'user', id: principal.userId },
        data: draft,
      });
    }
    return draft;
  });
}

/** Soft delete: the article leaves lists, collections and search; reads of it answer 404. */
export async function deleteArticle(deps: Deps, principal: Principal, id: string) {
  const organizationId = principal.organizationId;
  const article = await presentOne(deps.db, organizationId, id);
  const at = deps.clock.now().toISOString();
  const deleted = { ...article, isDeleted: true, deletedAt: at, updatedAt: at };
  await deps.db.transaction().execute(async (trx) => {
    await updateArticle(trx, organizationId, id, { deleted_at: at, updated_at: at });
    await removeFullTextEntry(trx, SEARCH_INDEX, id);
    await recordEvent(trx, deps, organizationId, {
      type: 'article.deleted',
      actor: { type: 'user', id: principal.userId },
      data: deleted,
    });
  });
  return deleted;
}

/** Published articles ranked by relevance over title and body, each with a highlighted excerpt. */
export async function searchArticles(db: Kysely<DB>, principal: Principal, query: Static<typeof SearchArticlesQuerySchema>) {
  const organizationId = principal.organizationId;
  let search: SearchQuery;
  try {
    search = parseSearchQuery(query.q);
  } catch (error) {
    if (error instanceof SearchQueryError) {
      throw AppError.invalid(`q ${error.message}`, { location: 'query', path: ['q'], rule: 'pattern' });
    }
    throw error;
  }
  if (query.helpCenterId) {
    await requireHelpCenter(db, organizationId, query.helpCenterId);
  }
  const hits = await searchFullText(db, SEARCH_INDEX, {
    organizationId,
    search,
    limit: query.limit ?? 10,
    within: publishedArticleIds(db, organizationId, query.helpCenterId),
  });
  const ids = hits.map((hit) => hit.documentId);
  const rows = new Map((await findArticlesByIds(db, organizationId, ids)).map((row) => [row.id, row]));
  const placements = await placementsOf(db, ids);
  return hits.flatMap((hit) => {
    const row = rows.get(hit.documentId);
    if (!row || row.published_title === null || row.published_at === null) {
      return [];
    }
    const placement = placements.get(row.id);
    return [
      {
        _id: row.id,
        uid: row.uid,
        title: row.published_title,
        description: row.published_description,
        slug: row.slug,
        excerpt: hit.excerpt,
        collections: placement?.collections ?? [],
        helpCenters: placement?.helpCenters ?? [],
        publishedAt: row.published_at,
      },
    ];
  });
}
