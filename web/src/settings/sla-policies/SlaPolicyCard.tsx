import { SLA_METRICS } from '../../../../src/shared/sla';
import type { Choice, ConditionCatalog } from '../../ui/conditions/condition-catalog';
import { conditionDraft } from '../../ui/conditions/conditions';
import { formatDuration } from '../../ui/duration';
import { SLA_METRIC_LABELS } from '../../ui/sla-countdown';
import { SortableItem } from '../../ui/sortable/SortableItem';
import type { SlaPolicy } from './sla-policy-api';

/** One policy in the order: its place, the tickets it applies to in words, its targets, its clock. */
export function SlaPolicyCard({
  policy,
  position,
  count,
  catalog,
  priorities,
  busy,
  onMove,
  onEdit,
  onDelete,
}: {
  policy: SlaPolicy;
  position: number;
  count: number;
  catalog: ConditionCatalog;
  priorities: Choice[];
  busy: boolean;
  onMove: (to: number) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const all = policy.andRules.map((text) => catalog.describe(conditionDraft(text)));
  const any = policy.orRules.map((text) => catalog.describe(conditionDraft(text)));
  const labelOf = (name: string) => priorities.find((priority) => priority.value === name)?.label ?? name;
  const targets = Object.entries(policy.targets).map(([priority, target]) => {
    const set = SLA_METRICS.flatMap((metric) =>
      target[metric] === undefined ? [] : [`${SLA_METRIC_LABELS[metric].toLowerCase()} ${formatDuration(target[metric])}`],
    );
    return `${labelOf(priority)}: ${set.join(', ')}`;
  });
  return (
    <SortableItem
      id={policy.id}
      name={policy.name}
      position={position}
      count={count}
      busy={busy}
      onMove={onMove}
      onEdit={onEdit}
      onDelete={onDelete}
    >
      <p className="font-medium">
        <span className="mr-2 text-zinc-500 dark:text-zinc-400">{position + 1}.</span>
        {policy.name}
      </p>
      <p className="text-zinc-600 dark:text-zinc-400">
        {all.length === 0 && any.length === 0 ? 'Every ticket' : null}
        {all.join(' and ')}
        {all.length > 0 && any.length > 0 ? ', and ' : null}
        {any.length > 0 ? `any of: ${any.join(' or ')}` : null}
      </p>
      {targets.length > 0 ? (
        <ul className="text-zinc-600 dark:text-zinc-400">
          {targets.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="text-zinc-600 dark:text-zinc-400">No targets</p>
      )}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {policy.businessHours ? 'Business hours' : 'Calendar time'} · warning at {Math.round(policy.warningShare * 1000) / 10}%
        {policy.aiRepliesCount ? ' · AI replies count' : ''}
      </p>
    </SortableItem>
  );
}
