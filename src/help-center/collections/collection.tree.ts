import { compareText } from '../../lib/order.js';

/** Pure rules over one help center's collections, given as nodes. */
export interface CollectionNode {
  id: string;
  parent_id: string | null;
  position: number;
  is_protected: boolean;
}

/** Collections nest at most this many levels: a top-level one is level 1. */
export const MAX_DEPTH = 5;

export class CollectionTree<T extends CollectionNode> {
  private readonly byId: Map<string, T>;
  private readonly children = new Map<string | null, T[]>();

  constructor(nodes: readonly T[]) {
    this.byId = new Map(nodes.map((node) => [node.id, node]));
    for (const node of nodes) {
      const siblings = this.children.get(node.parent_id) ?? [];
      siblings.push(node);
      this.children.set(node.parent_id, siblings);
    }
    for (const siblings of this.children.values()) {
      siblings.sort((a, b) => a.position - b.position || compareText(a.id, b.id));
    }
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Children of `parentId` (null: the top level), by `order`. */
  childrenOf(parentId: string | null): T[] {
    return this.children.get(parentId) ?? [];
  }

  /** 1 for a top-level collection, 2 for its children… */
  depthOf(id: string): number {
    let depth = 0;
    for (let node = this.byId.get(id); node; node = node.parent_id ? this.byId.get(node.parent_id) : undefined) {
      depth++;
    }
    return depth;
  }

  /** Levels in the subtree rooted at `id`: 1 for a leaf. */
  heightOf(id: string): number {
    return 1 + this.childrenOf(id).reduce((height, child) => Math.max(height, this.heightOf(child.id)), 0);
  }

  /** Whether `candidateId` is `id` itself or one of its descendants. */
  isWithin(candidateId: string, id: string): boolean {
    for (let node = this.byId.get(candidateId); node; node = node.parent_id ? this.byId.get(node.parent_id) : undefined) {
      if (node.id === id) {
        return true;
      }
    }
    return false;
  }

  /** Protected when it or any ancestor is: a sub-collection of a protected collection reads as protected. */
  isProtected(id: string): boolean {
    for (let node = this.byId.get(id); node; node = node.parent_id ? this.byId.get(node.parent_id) : undefined) {
      if (node.is_protected) {
        return true;
      }
    }
    return false;
  }

  /**
   * Listing order, by parent then `order`: `roots` (the top level unless given) first, then the
   * children of each listed collection in turn, so every collection comes after its parent and
   * siblings stay together. One pass: the list is its own queue (an array iterator also visits
   * what is pushed while it runs), so each collection is expanded once.
   */
  listingOrder(roots: readonly T[] = this.childrenOf(null)): T[] {
    const ordered = [...roots];
    for (const parent of ordered) {
      for (const child of this.childrenOf(parent.id)) {
        ordered.push(child);
      }
    }
    return ordered;
  }
}

/** `ids` with `id` placed at 1-based `order` (clamped; appended when absent). */
export function placeAt(ids: readonly string[], id: string, order: number | undefined): string[] {
  const others = ids.filter((other) => other !== id);
  const index = order === undefined ? others.length : Math.min(Math.max(order, 1), others.length + 1) - 1;
  return [...others.slice(0, index), id, ...others.slice(index)];
}
