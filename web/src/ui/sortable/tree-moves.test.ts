import { describe, expect, it } from 'vitest';
import { flattenTree, moveAmongSiblings, moveInto, moveOut, projectDrop, type TreeNode } from './tree-moves';

const node = (id: string, parentId: string | null, order: number): TreeNode => ({ id, name: id, parentId, order });

// a
//   a1
//   a2
// b
// c
const TREE = flattenTree([node('c', null, 3), node('a2', 'a', 2), node('b', null, 2), node('a', null, 1), node('a1', 'a', 1)]);

describe('tree moves', () => {
  it('flattens parents before their children, siblings by order', () => {
    expect(TREE.map((entry) => `${entry.node.id}:${entry.depth}`)).toEqual(['a:0', 'a1:1', 'a2:1', 'b:0', 'c:0']);
  });

  it('moves among siblings, never past either end', () => {
    expect(moveAmongSiblings(TREE, 'b', -1)).toEqual({ id: 'b', parentId: null, order: 1 });
    expect(moveAmongSiblings(TREE, 'a2', -1)).toEqual({ id: 'a2', parentId: 'a', order: 1 });
    expect(moveAmongSiblings(TREE, 'a', -1)).toBeUndefined();
    expect(moveAmongSiblings(TREE, 'a2', 1)).toBeUndefined();
  });

  it('moves into the sibling above (last of its children) and out just after the parent', () => {
    expect(moveInto(TREE, 'b')).toEqual({ id: 'b', parentId: 'a', order: 3 });
    expect(moveInto(TREE, 'a')).toBeUndefined();
    expect(moveOut(TREE, 'a1')).toEqual({ id: 'a1', parentId: null, order: 2 });
    expect(moveOut(TREE, 'b')).toBeUndefined();
  });

  it('projects a drop: the place of the node dropped over, the depth the pointer asks within what fits', () => {
    // c over b: before b, at the top level.
    expect(projectDrop(TREE, 'c', 'b', 0)).toEqual({ id: 'c', parentId: null, order: 2 });
    // c over b, dragged right: under a, after a2.
    expect(projectDrop(TREE, 'c', 'b', 1)).toEqual({ id: 'c', parentId: 'a', order: 3 });
    // c dragged right where it is: into b.
    expect(projectDrop(TREE, 'c', 'c', 1)).toEqual({ id: 'c', parentId: 'b', order: 1 });
    // b over a1 (downwards list order: b goes before a1), as deep as a1.
    expect(projectDrop(TREE, 'b', 'a1', 0)).toEqual({ id: 'b', parentId: 'a', order: 1 });
    // a1 dragged left where it is: a child cannot leave while a sibling is below it.
    expect(projectDrop(TREE, 'a1', 'a1', -1)).toBeUndefined();
    // a2 dragged left where it is: out, just after a.
    expect(projectDrop(TREE, 'a2', 'a2', -1)).toEqual({ id: 'a2', parentId: null, order: 2 });
    // a dropped over its own child, or left where it was: nothing.
    expect(projectDrop(TREE, 'a', 'a1', 0)).toBeUndefined();
    expect(projectDrop(TREE, 'a', 'a', 0)).toBeUndefined();
  });
});
