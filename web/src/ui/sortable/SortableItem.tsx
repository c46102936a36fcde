import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../Button';

/**
 * One item of a `SortableList`: its drag handle, what it says (`children`), and its buttons: Move
 * up and Move down (for those who prefer buttons to dragging), Edit and Delete.
 */
export function SortableItem({
  id,
  name,
  position,
  count,
  busy,
  onMove,
  onEdit,
  onDelete,
  children,
}: {
  id: string;
  name: string;
  position: number;
  count: number;
  busy: boolean;
  onMove: (to: number) => void;
  onEdit: () => void;
  onDelete: () => void;
  children: ReactNode;
}) {
  const sortable = useSortable({ id, disabled: busy });
  const style = { transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition };
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      aria-label={`${position + 1}. ${name}`}
      className={`flex gap-2 rounded-md border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-950 ${sortable.isDragging ? 'relative z-10 shadow-lg' : ''}`}
    >
      <button
        type="button"
        ref={sortable.setActivatorNodeRef}
        aria-label={`Reorder ${name}`}
        className="cursor-grab self-start rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
        {...sortable.attributes}
        {...sortable.listeners}
      >
        <GripVertical size={16} aria-hidden />
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">{children}</div>
      <div className="flex shrink-0 flex-wrap items-start justify-end gap-1">
        <IconButton label={`Move ${name} up`} disabled={busy || position === 0} onClick={() => onMove(position - 1)}>
          <ArrowUp size={16} aria-hidden />
        </IconButton>
        <IconButton label={`Move ${name} down`} disabled={busy || position === count - 1} onClick={() => onMove(position + 1)}>
          <ArrowDown size={16} aria-hidden />
        </IconButton>
        <IconButton label={`Edit ${name}`} onClick={onEdit}>
          <Pencil size={16} aria-hidden />
        </IconButton>
        <IconButton label={`Delete ${name}`} onClick={onDelete}>
          <Trash2 size={16} aria-hidden />
        </IconButton>
      </div>
    </li>
  );
}

function IconButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button variant="ghost" aria-label={label} title={label} className="px-2" disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}
