import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';

export interface SortableEntry {
  id: string;
  name: string;
}

/**
 * A list in evaluation order that is reordered by dragging an item's handle: with the pointer, or
 * with Space and the arrow keys, each step announced for screen readers by name and position.
 * Each item is a `SortableItem`; `onMove` gets the item's old and new index.
 */
export function SortableList<Entry extends SortableEntry>({
  items,
  label,
  onMove,
  children,
}: {
  items: Entry[];
  label: string;
  onMove: (from: number, to: number) => void;
  children: (item: Entry, position: number) => ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) => items.find((item) => item.id === id)?.name ?? 'the item';
  const positionOf = (id: string | number) => items.findIndex((item) => item.id === id) + 1;
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const from = items.findIndex((item) => item.id === active.id);
    const to = items.findIndex((item) => item.id === over?.id);
    if (from >= 0 && to >= 0) {
      onMove(from, to);
    }
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at position ${positionOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over ? `${nameOf(active.id)} is over position ${positionOf(over.id)}.` : `${nameOf(active.id)} is outside the list.`,
          onDragEnd: ({ active, over }) =>
            over ? `Dropped ${nameOf(active.id)} at position ${positionOf(over.id)}.` : `Dropped ${nameOf(active.id)}.`,
          onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
        },
      }}
    >
      <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy}>
        <ol aria-label={label} className="flex flex-col gap-2">
          {items.map((item, position) => children(item, position))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
