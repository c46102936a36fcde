import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Pencil, Trash2 } from 'lucide-react';
import { Button } from '../../ui/Button';
import type { RoutingRule } from './routing-api';
import { conditionDraft } from './routing-conditions';
import type { ConditionCatalog } from './use-condition-catalog';

/** One rule in the team's order: its place, what it tests in words, where it sends, and its actions. */
export function RuleCard({
  rule,
  position,
  count,
  catalog,
  teamName,
  busy,
  onMove,
  onEdit,
  onDelete,
}: {
  rule: RoutingRule;
  position: number;
  count: number;
  catalog: ConditionCatalog;
  teamName: (id: string | null) => string;
  busy: boolean;
  onMove: (to: number) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const sortable = useSortable({ id: rule.id, disabled: busy });
  const style = { transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition };
  const all = rule.andRules.map((text) => catalog.describe(conditionDraft(text)));
  const any = rule.orRules.map((text) => catalog.describe(conditionDraft(text)));
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      aria-label={`${position + 1}. ${rule.name}`}
      className={`flex gap-2 rounded-md border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-950 ${sortable.isDragging ? 'relative z-10 shadow-lg' : ''}`}
    >
      <button
        type="button"
        ref={sortable.setActivatorNodeRef}
        aria-label={`Reorder ${rule.name}`}
        className="cursor-grab self-start rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
        {...sortable.attributes}
        {...sortable.listeners}
      >
        <GripVertical size={16} aria-hidden />
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <p className="font-medium">
          <span className="mr-2 text-zinc-500 dark:text-zinc-400">{position + 1}.</span>
          {rule.name}
        </p>
        <p className="text-zinc-600 dark:text-zinc-400">
          {all.length === 0 && any.length === 0 ? 'Every ticket' : null}
          {all.join(' and ')}
          {all.length > 0 && any.length > 0 ? ', and ' : null}
          {any.length > 0 ? `any of: ${any.join(' or ')}` : null}
          {' → '}
          <span className="font-medium text-zinc-800 dark:text-zinc-200">{teamName(rule.resultTeamId)}</span>
          {rule.fallbackTeamId ? ` (fallback ${teamName(rule.fallbackTeamId)})` : null}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap items-start justify-end gap-1">
        <IconButton label={`Move ${rule.name} up`} disabled={busy || position === 0} onClick={() => onMove(position - 1)}>
          <ArrowUp size={16} aria-hidden />
        </IconButton>
        <IconButton
          label={`Move ${rule.name} down`}
          disabled={busy || position === count - 1}
          onClick={() => onMove(position + 1)}
        >
          <ArrowDown size={16} aria-hidden />
        </IconButton>
        <IconButton label={`Edit ${rule.name}`} onClick={onEdit}>
          <Pencil size={16} aria-hidden />
        </IconButton>
        <IconButton label={`Delete ${rule.name}`} onClick={onDelete}>
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
  children: React.ReactNode;
}) {
  return (
    <Button variant="ghost" aria-label={label} title={label} className="px-2" disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}
