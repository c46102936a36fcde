import { readMeta } from '../help-centers/help-center.meta.js';
import type { CollectionRow } from './collection.repository.js';
import type { CollectionTree } from './collection.tree.js';

export type Node = Omit<CollectionRow, 'is_protected'> & { is_protected: boolean };

export type Tree = CollectionTree<Node>;

export function toCollection(node: Node, tree: Tree, articles: string[]) {
  return {
    _id: node.id,
    orgId: node.organization_id,
    uid: node.uid,
    helpCenterId: node.help_center_id,
    name: node.name,
    slug: node.slug,
    order: node.position,
    createdBy: node.created_by,
    isProtected: tree.isProtected(node.id),
    createdAt: node.created_at,
    updatedAt: node.updated_at,
    description: node.description,
    parentId: node.parent_id,
    articles,
    icon: node.icon,
    meta: readMeta(node.meta),
  };
}
