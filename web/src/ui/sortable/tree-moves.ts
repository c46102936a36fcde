/** A node of a tree the API orders one move at a time: its parent, and its place among its siblings (1, 2, 3…). */
export interface TreeNode {
  id: string;
  name: string;
  parentId: string | null;
  order: number;
}

/** A node as a `SortableTree` shows it: in reading order, indented by its depth (0 at the top level). */
export interface FlatNode<Node extends TreeNode = TreeNode> {
  node: Node;
  depth: number;
}

/** What the API is asked for: the new parent, and the place among the new siblings (1-based, the moved node left out). */
export interface TreeMove {
  id: string;
  parentId: string | null;
  order: number;
}

/** The nodes in reading order: each parent, then its children by `order`, depth first. */
export function flattenTree<Node extends TreeNode>(nodes: readonly Node[]): FlatNode<Node>[] {
  const children = new Map<string | null, Node[]>();
  const ids = new Set(nodes.map((node) => node.id));
  for (const node of nodes) {
    // A node whose parent is not listed shows at the top level rather than vanishing.
    const parentId = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    children.set(parentId, [...(children.get(parentId) ?? []), node]);
  }
  const flat: FlatNode<Node>[] = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const node of [...(children.get(parentId) ?? [])].sort((a, b) => a.order - b.order)) {
      flat.push({ node, depth });
      visit(node.id, depth + 1);
    }
  };
  visit(null, 0);
  return flat;
}

const siblingsOf = <Node extends TreeNode>(flat: readonly FlatNode<Node>[], parentId: string | null) =>
  flat.filter((entry) => entry.node.parentId === parentId);

/** The node's siblings (itself among them) and its index there. */
function placeOf<Node extends TreeNode>(flat: readonly FlatNode<Node>[], id: string) {
  const self = flat.find((entry) => entry.node.id === id);
  if (!self) {
    return undefined;
  }
  const siblings = siblingsOf(flat, self.node.parentId);
  return { self, siblings, index: siblings.findIndex((entry) => entry.node.id === id) };
}

/** One place up (`-1`) or down (`1`) among its siblings; undefined at the end it would pass. */
export function moveAmongSiblings(flat: readonly FlatNode[], id: string, step: -1 | 1): TreeMove | undefined {
  const place = placeOf(flat, id);
  if (!place?.siblings[place.index + step]) {
    return undefined;
  }
  return { id, parentId: place.self.node.parentId, order: place.index + step + 1 };
}

/** The sibling just above, which "Move into" makes the node's parent (the node goes last among its children). */
export function previousSibling<Node extends TreeNode>(flat: readonly FlatNode<Node>[], id: string): Node | undefined {
  const place = placeOf(flat, id);
  return place && place.index > 0 ? place.siblings[place.index - 1]?.node : undefined;
}

export function moveInto(flat: readonly FlatNode[], id: string): TreeMove | undefined {
  const parent = previousSibling(flat, id);
  return parent ? { id, parentId: parent.id, order: siblingsOf(flat, parent.id).length + 1 } : undefined;
}

/** "Move out": the node goes just after its parent, among its parent's siblings. */
export function moveOut(flat: readonly FlatNode[], id: string): TreeMove | undefined {
  const place = placeOf(flat, id);
  const parentId = place?.self.node.parentId;
  if (!place || !parentId) {
    return undefined;
  }
  const parent = placeOf(flat, parentId);
  return parent ? { id, parentId: parent.self.node.parentId, order: parent.index + 2 } : undefined;
}

/** Whether `candidateId` is `id` or under it. */
export function isWithin(flat: readonly FlatNode[], candidateId: string | null, id: string): boolean {
  const parents = new Map(flat.map((entry) => [entry.node.id, entry.node.parentId]));
  for (let at = candidateId; at !== null && at !== undefined; at = parents.get(at) ?? null) {
    if (at === id) {
      return true;
    }
  }
  return false;
}

/**
 * Where a dragged node lands: dropped over `overId`, moved `depthChange` levels right (positive) or
 * left by the pointer. As in a file tree, the node takes the place of the one it is dropped over,
 * its depth held between that of the node now above it plus one and that of the node now below
 * it; its parent is the nearest node above at one level less. Undefined when nothing changes.
 */
export function projectDrop(
  flat: readonly FlatNode[],
  activeId: string,
  overId: string,
  depthChange: number,
): TreeMove | undefined {
  const active = flat.find((entry) => entry.node.id === activeId);
  if (!active || (overId !== activeId && isWithin(flat, overId, activeId))) {
    // Dropped over its own descendant: nothing sensible to do.
    return undefined;
  }
  // The dragged node travels with its subtree, so the rest of the list is what it is placed among.
  const rest = flat.filter((entry) => !isWithin(flat, entry.node.id, activeId));
  const fromIndex = flat.indexOf(active);
  const overIndex = flat.findIndex((entry) => entry.node.id === overId);
  const overInRest = rest.findIndex((entry) => entry.node.id === overId);
  const insertAt =
    overId === activeId
      ? rest.filter((entry) => flat.indexOf(entry) < fromIndex).length
      : overIndex > fromIndex
        ? overInRest + 1
        : overInRest;
  const above = rest[insertAt - 1];
  const below = rest[insertAt];
  const maxDepth = above ? above.depth + 1 : 0;
  const minDepth = below ? below.depth : 0;
  const depth = Math.max(minDepth, Math.min(maxDepth, active.depth + depthChange));
  let parentId: string | null = null;
  for (let index = insertAt - 1; index >= 0 && depth > 0; index--) {
    const candidate = rest[index];
    if (candidate && candidate.depth === depth - 1) {
      parentId = candidate.node.id;
      break;
    }
  }
  const order = rest.slice(0, insertAt).filter((entry) => entry.node.parentId === parentId).length + 1;
  if (parentId === active.node.parentId && order === (placeOf(flat, activeId)?.index ?? -1) + 1) {
    return undefined;
  }
  return { id: activeId, parentId, order };
}
