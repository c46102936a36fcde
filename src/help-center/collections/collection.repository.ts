import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import type { CollectionTable } from './collection.table.js';

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

/** Every collection of the organization, or of one of its help centers, help centers oldest first. */
export async function listCollections(db: Db, organizationId: string, helpCenterId?: string): Promise<CollectionRow[]> {
  let query = db
    .selectFrom('help_center_collections')
    .innerJoin('help_centers', 'help_centers.id', 'help_center_collections.help_center_id')
    .select(COLLECTION_COLUMNS)
    .where('help_center_collections.organization_id', '=', organizationId);
  if (helpCenterId) {
    query = query.where('help_center_collections.help_center_id', '=', helpCenterId);
  }
  return query
    .orderBy('help_centers.created_at')
    .orderBy('help_centers.id')
    .orderBy('help_center_collections.position')
    .orderBy('help_center_collections.id')
    .execute();
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
