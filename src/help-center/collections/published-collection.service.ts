import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { type Meta, readMeta } from '../help-centers/help-center.meta.js';
import { listHelpCenterCollections } from './collection.repository.js';
import { CollectionTree } from './collection.tree.js';

/** A collection as the public site shows it. */
export interface SiteCollection {
  id: string;
  uid: number;
  parent_id: string | null;
  position: number;
  /** The collection's own flag; `CollectionTree.isProtected` reads the inherited one. */
  is_protected: boolean;
  name: string;
  slug: string;
  description: string | null;
  icon: string;
  meta: Meta;
  updatedAt: string;
}

/**
 * One help center's collections as a tree, restricted to those the reader may see: all of them
 * for a signed-in customer of the organization, otherwise those neither protected nor below a
 * protected one (the help center's own protection is the caller's to check).
 */
export async function visibleCollectionTree(
  db: Kysely<DB>,
  organizationId: string,
  helpCenterId: string,
  options: { includeProtected: boolean },
): Promise<CollectionTree<SiteCollection>> {
  const rows = await listHelpCenterCollections(db, organizationId, helpCenterId);
  const all = new CollectionTree<SiteCollection>(
    rows.map((row) => ({
      id: row.id,
      uid: row.uid,
      parent_id: row.parent_id,
      position: row.position,
      is_protected: readBoolean(row.is_protected),
      name: row.name,
      slug: row.slug,
      description: row.description,
      icon: row.icon,
      meta: readMeta(row.meta),
      updatedAt: row.updated_at,
    })),
  );
  if (options.includeProtected) {
    return all;
  }
  return new CollectionTree(all.listingOrder().filter((collection) => !all.isProtected(collection.id)));
}
