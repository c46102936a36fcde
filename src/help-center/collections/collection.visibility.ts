import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { isPublicHelpCenter } from '../help-centers/help-center.service.js';
import { type CollectionRow, findCollectionsByIds } from './collection.repository.js';
import { CollectionTree, MAX_DEPTH } from './collection.tree.js';

/**
 * The collections among `ids` that anyone may read: neither the collection, nor any collection
 * above it, nor its help center is protected. What an agent answering a customer may cite comes
 * from these only. Ids of no collection of the organization are left out. One query per level
 * of ancestors (nesting is at most `MAX_DEPTH` deep) and one per help center.
 */
export async function publicCollectionIds(db: Kysely<DB>, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = new Map<string, CollectionRow>();
  let wanted = [...new Set(ids)];
  for (let depth = 0; depth < MAX_DEPTH && wanted.length > 0; depth++) {
    const found = await findCollectionsByIds(db, organizationId, wanted);
    for (const row of found) {
      rows.set(row.id, row);
    }
    wanted = [...new Set(found.flatMap((row) => (row.parent_id !== null && !rows.has(row.parent_id) ? [row.parent_id] : [])))];
  }
  const tree = new CollectionTree([...rows.values()].map((row) => ({ ...row, is_protected: readBoolean(row.is_protected) })));
  const protectedCenters = new Set<string>();
  for (const helpCenterId of new Set([...rows.values()].map((row) => row.help_center_id))) {
    if (!(await isPublicHelpCenter(db, organizationId, helpCenterId))) {
      protectedCenters.add(helpCenterId);
    }
  }
  return new Set(
    ids.filter((id) => {
      const row = rows.get(id);
      return row !== undefined && !tree.isProtected(id) && !protectedCenters.has(row.help_center_id);
    }),
  );
}
