import type { ConditionCatalog } from '../../ui/conditions/condition-catalog';
import { conditionDraft } from '../../ui/conditions/conditions';
import { SortableItem } from '../../ui/sortable/SortableItem';
import type { RoutingRule } from './routing-api';

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
  const all = rule.andRules.map((text) => catalog.describe(conditionDraft(text)));
  const any = rule.orRules.map((text) => catalog.describe(conditionDraft(text)));
  return (
    <SortableItem
      id={rule.id}
      name={rule.name}
      position={position}
      count={count}
      busy={busy}
      onMove={onMove}
      onEdit={onEdit}
      onDelete={onDelete}
    >
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
    </SortableItem>
  );
}
