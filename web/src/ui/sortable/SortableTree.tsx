import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, CornerDownRight, CornerLeftUp, GripVertical } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../Button';
import {
  type FlatNode,
  flattenTree,
  moveAmongSiblings,
  moveInto,
  moveOut,
  previousSibling,
  projectDrop,
  type TreeMove,
  type TreeNode,
} from './tree-moves';

/** How far right, in pixels, a level is indented, and how far the pointer goes to change a dragged node's level. */
export const TREE_INDENT = 28;

/**
 * A tree reordered and nested by dragging a node's handle: up and down to change its place, right
 * or left to change its level (as in a file tree), or with Space and the arrow keys for its place.
 * Each node also has buttons: Move up, Move down, Move into the node above, Move out of its parent.
 * Every move is one `onMove` (the API's parent and order); `children` draws what a node says.
 */
export function SortableTree<Node extends TreeNode>({
  nodes,
  label,
  busy,
  readOnly = false,
  onMove,
  children,
}: {
  nodes: readonly Node[];
  label: string;
  busy: boolean;
  /** For those who may not rearrange it: the tree as it is, without handles or move buttons. */
  readOnly?: boolean;
  onMove: (move: TreeMove) => void;
  children: (node: Node, flat: FlatNode<Node>) => ReactNode;
}) {
  const flat = flattenTree(nodes);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) => nodes.find((node) => node.id === id)?.name ?? 'the item';
  const positionOf = (id: string | number) => flat.findIndex((entry) => entry.node.id === id) + 1;
  const onDragEnd = ({ active, over, delta }: DragEndEvent) => {
    if (!over) {
      return;
    }
    const move = projectDrop(flat, String(active.id), String(over.id), Math.round(delta.x / TREE_INDENT));
    if (move) {
      onMove(move);
    }
  };
  const send = (move: TreeMove | undefined) => {
    if (move) {
      onMove(move);
    }
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at row ${positionOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over ? `${nameOf(active.id)} is over row ${positionOf(over.id)}.` : `${nameOf(active.id)} is outside the tree.`,
          onDragEnd: ({ active, over }) =>
            over ? `Dropped ${nameOf(active.id)} at row ${positionOf(over.id)}.` : `Dropped ${nameOf(active.id)}.`,
          onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
        },
      }}
    >
      <SortableContext items={flat.map((entry) => entry.node.id)} strategy={verticalListSortingStrategy}>
        <ol aria-label={label} className="flex flex-col gap-1.5">
          {flat.map((entry) => (
            <TreeRow
              key={entry.node.id}
              entry={entry}
              busy={busy}
              readOnly={readOnly}
              into={previousSibling(flat, entry.node.id)?.name}
              outOf={entry.node.parentId ? nameOf(entry.node.parentId) : undefined}
              canMoveUp={Boolean(moveAmongSiblings(flat, entry.node.id, -1))}
              canMoveDown={Boolean(moveAmongSiblings(flat, entry.node.id, 1))}
              onMoveUp={() => send(moveAmongSiblings(flat, entry.node.id, -1))}
              onMoveDown={() => send(moveAmongSiblings(flat, entry.node.id, 1))}
              onMoveInto={() => send(moveInto(flat, entry.node.id))}
              onMoveOut={() => send(moveOut(flat, entry.node.id))}
            >
              {children(entry.node, entry)}
            </TreeRow>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function TreeRow<Node extends TreeNode>({
  entry,
  busy,
  readOnly,
  into,
  outOf,
  canMoveUp,
  canMoveDown,
  onMoveUp,
  onMoveDown,
  onMoveInto,
  onMoveOut,
  children,
}: {
  entry: FlatNode<Node>;
  busy: boolean;
  readOnly: boolean;
  into: string | undefined;
  outOf: string | undefined;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onMoveUp: () => void;
  onMoveDown: () => void;
  onMoveInto: () => void;
  onMoveOut: () => void;
  children: ReactNode;
}) {
  const { node, depth } = entry;
  const sortable = useSortable({ id: node.id, disabled: busy || readOnly });
  const style = {
    transform: CSS.Translate.toString(sortable.transform),
    transition: sortable.transition,
    marginInlineStart: `min(${depth * TREE_INDENT}px, ${depth * 4}vw)`,
  };
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      aria-label={node.name}
      className={`flex flex-wrap items-start gap-2 rounded-md border border-zinc-200 bg-white p-2 dark:border-zinc-800 dark:bg-zinc-950 ${sortable.isDragging ? 'relative z-10 shadow-lg' : ''}`}
    >
      <button
        type="button"
        hidden={readOnly}
        ref={sortable.setActivatorNodeRef}
        aria-label={`Reorder ${node.name}`}
        className="cursor-grab touch-none self-start rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
        {...sortable.attributes}
        {...sortable.listeners}
      >
        <GripVertical size={16} aria-hidden />
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 text-sm">
        <span className="sr-only">Level {depth + 1}</span>
        {children}
      </div>
      <div className={`flex shrink-0 flex-wrap items-start justify-end gap-0.5 ${readOnly ? 'hidden' : ''}`}>
        <MoveButton label={`Move ${node.name} up`} disabled={busy || !canMoveUp} onClick={onMoveUp}>
          <ArrowUp size={16} aria-hidden />
        </MoveButton>
        <MoveButton label={`Move ${node.name} down`} disabled={busy || !canMoveDown} onClick={onMoveDown}>
          <ArrowDown size={16} aria-hidden />
        </MoveButton>
        <MoveButton
          label={into ? `Move ${node.name} into ${into}` : `Move ${node.name} into the item above`}
          disabled={busy || !into}
          onClick={onMoveInto}
        >
          <CornerDownRight size={16} aria-hidden />
        </MoveButton>
        <MoveButton
          label={outOf ? `Move ${node.name} out of ${outOf}` : `Move ${node.name} out`}
          disabled={busy || !outOf}
          onClick={onMoveOut}
        >
          <CornerLeftUp size={16} aria-hidden />
        </MoveButton>
      </div>
    </li>
  );
}

function MoveButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button variant="ghost" aria-label={label} title={label} className="px-2" disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}
