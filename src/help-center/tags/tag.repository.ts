import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { afterKeys } from '../../db/keyset.js';
import type { CursorKey } from '../../lib/cursors.js';
import type { TagTable } from './tag.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const TAG_COLUMNS = ['id', 'organization_id', 'name', 'lower_name', 'created_by', 'created_at', 'updated_at'] as const;

export type TagRow = Pick<TagTable, (typeof TAG_COLUMNS)[number]>;

export async function insertTag(db: Db, row: TagTable): Promise<void> {
  await db.insertInto('help_center_tags').values(row).execute();
}

export async function findTagById(db: Db, organizationId: string, id: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('help_center_tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findTagByLowerName(db: Db, organizationId: string, lowerName: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('help_center_tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('lower_name', '=', lowerName)
    .executeTakeFirst();
}

/** The organization's tags among `ids`. */
export async function findTagsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<TagRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .selectFrom('help_center_tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
}

/** A page of the organization's tags, alphabetical case-insensitively, after the keys `[lower_name, id]`. */
export async function listTags(
  db: Db,
  organizationId: string,
  page: { after?: readonly CursorKey[]; limit: number },
): Promise<TagRow[]> {
  let query = db.selectFrom('help_center_tags').select(TAG_COLUMNS).where('organization_id', '=', organizationId);
  if (page.after) {
    query = query.where(afterKeys(['lower_name', 'id'], page.after, 'asc'));
  }
  return query.orderBy('lower_name').orderBy('id').limit(page.limit).execute();
}

export async function updateTag(db: Db, organizationId: string, id: string, changes: Updateable<TagTable>): Promise<void> {
  await db
    .updateTable('help_center_tags')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export async function deleteTag(db: Db, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('help_center_tags').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Locks the organization's tags among `ids`, in id order (so two merges of one pair cannot deadlock); those still there. */
export async function lockTagsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<TagRow[]> {
  return forUpdate(
    db,
    db
      .selectFrom('help_center_tags')
      .select(TAG_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .orderBy('id'),
  ).execute();
}
