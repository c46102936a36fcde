import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { conflictAs } from '../../db/errors.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { dropTagFromArticles, moveTagOnArticles } from '../articles/article-membership.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { nonBlank } from '../help-centers/help-center.input.js';
import { toTag } from './tag.presenter.js';
import {
  deleteTag,
  findTagById,
  findTagByLowerName,
  findTagsByIds,
  insertTag,
  listTags,
  lockTagsByIds,
  type TagRow,
  updateTag,
} from './tag.repository.js';
import type { CreateTagSchema, ListTagsQuerySchema, MergeTagSchema, UpdateTagSchema } from './tag.schemas.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const TAG_NOT_FOUND = 'Tag not found';
const TAG_EXISTS = 'Tag with this name already exists';

/** Every id must be a tag of the organization (404 otherwise), as an article's tags and a tag filter must. */
export async function requireTagsExist(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  ids: readonly string[],
): Promise<void> {
  if ((await findTagsByIds(db, organizationId, ids)).length !== ids.length) {
    throw AppError.notFound(TAG_NOT_FOUND);
  }
}

async function requireTag(db: Kysely<DB>, organizationId: string, id: string): Promise<TagRow> {
  const row = await findTagById(db, organizationId, id);
  if (!row) {
    throw AppError.notFound(TAG_NOT_FOUND);
  }
  return row;
}

/** Names compare case-insensitively: `Billing` and `billing` are one tag. */
async function requireFreeName(db: Kysely<DB>, organizationId: string, lowerName: string, tagId?: string): Promise<void> {
  const taken = await findTagByLowerName(db, organizationId, lowerName);
  if (taken && taken.id !== tagId) {
    throw AppError.conflict(TAG_EXISTS);
  }
}

export async function createTag(deps: Deps, principal: Principal, input: Static<typeof CreateTagSchema>) {
  const name = nonBlank(input.name, 'name');
  const lowerName = name.toLowerCase();
  await requireFreeName(deps.db, principal.organizationId, lowerName);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.objectId();
  await insertTag(deps.db, {
    id,
    organization_id: principal.organizationId,
    name,
    lower_name: lowerName,
    created_by: principal.userId,
    created_at: at,
    updated_at: at,
  }).catch(conflictAs(TAG_EXISTS));
  return toTag(await requireTag(deps.db, principal.organizationId, id));
}

/** Alphabetical (lower-case name, then id): a keyset page. */
export async function listOrganizationTags(db: Kysely<DB>, principal: Principal, query: Static<typeof ListTagsQuerySchema>) {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readTypedCursor(query.cursor, ['text', 'text']);
  const rows = await listTags(db, principal.organizationId, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.lower_name, row.id]);
  return { items: page.items.map(toTag), nextCursor: page.nextCursor };
}

export async function renameTag(deps: Deps, principal: Principal, tagId: string, input: Static<typeof UpdateTagSchema>) {
  const tag = await requireTag(deps.db, principal.organizationId, tagId);
  const name = nonBlank(input.name, 'name');
  const lowerName = name.toLowerCase();
  await requireFreeName(deps.db, principal.organizationId, lowerName, tag.id);
  await updateTag(deps.db, principal.organizationId, tag.id, {
    name,
    lower_name: lowerName,
    updated_at: deps.clock.now().toISOString(),
  }).catch(conflictAs(TAG_EXISTS));
  return toTag(await requireTag(deps.db, principal.organizationId, tag.id));
}

/** Deletes the tag and takes it off every article. */
export async function removeTag(deps: Deps, principal: Principal, tagId: string) {
  const tag = await requireTag(deps.db, principal.organizationId, tagId);
  await deps.db.transaction().execute(async (trx) => {
    await dropTagFromArticles(trx, tag.id);
    await deleteTag(trx, principal.organizationId, tag.id);
  });
  return toTag(tag);
}

/**
 * Merges a tag into another in one transaction: the articles tagged with it get the other tag, and
 * it is deleted. Both tags are locked first, so a concurrent merge, rename or delete of either
 * waits, and then finds what this one left (a merged tag is gone: 404).
 */
export async function mergeTag(deps: Deps, principal: Principal, tagId: string, input: Static<typeof MergeTagSchema>) {
  const organizationId = principal.organizationId;
  if (input.intoTagId === tagId) {
    throw AppError.invalid('A tag cannot be merged into itself', { location: 'body', path: ['intoTagId'], rule: 'not' });
  }
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockTagsByIds(trx, organizationId, [tagId, input.intoTagId]);
    const target = locked.find((row) => row.id === input.intoTagId);
    if (locked.length !== 2 || !target) {
      throw AppError.notFound(TAG_NOT_FOUND);
    }
    await moveTagOnArticles(trx, tagId, target.id);
    await deleteTag(trx, organizationId, tagId);
    const at = deps.clock.now().toISOString();
    await updateTag(trx, organizationId, target.id, { updated_at: at });
    return toTag({ ...target, updated_at: at });
  });
}
