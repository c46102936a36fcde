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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { RuleCard } from './RuleCard';
import { deleteRule, type RoutingRule, rulesQuery, updateRule } from './routing-api';
import { applyMove, planMove } from './rule-order';
import { useConditionCatalog } from './use-condition-catalog';

/**
 * The team's rules in evaluation order. Drag a rule by its handle (pointer, or Space and the arrow
 * keys), or use Move up / Move down; each move writes the rules' evaluation orders through the API.
 */
export function RuleList({
  teamId,
  rules,
  teamName,
  onEdit,
}: {
  teamId: string;
  rules: RoutingRule[];
  teamName: (id: string | null) => string;
  onEdit: (ruleId: string) => void;
}) {
  const queryClient = useQueryClient();
  const catalog = useConditionCatalog(teamId);
  const [moving, setMoving] = useState<RoutingRule[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [deleting, setDeleting] = useState<RoutingRule | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: rulesQuery(teamId).queryKey });
  const move = useMutation({
    mutationFn: async ({ from, to }: { from: number; to: number }) => {
      for (const change of planMove(rules, from, to)) {
        await updateRule(teamId, change.ruleId, { evaluationOrder: change.evaluationOrder });
      }
    },
    onMutate: ({ from, to }) => setMoving(applyMove(rules, from, to)),
    onSuccess: (_done, { from, to }) => setAnnouncement(`Moved ${rules[from]?.name ?? 'the rule'} to position ${to + 1}.`),
    onSettled: async () => {
      await refresh();
      setMoving(null);
    },
  });
  const remove = useMutation({
    mutationFn: (rule: RoutingRule) => deleteRule(teamId, rule.id),
    onSuccess: async (_done, rule) => {
      setAnnouncement(`Deleted ${rule.name}.`);
      setDeleting(null);
      await refresh();
    },
  });
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const shown = moving ?? rules;
  const nameOf = (id: string | number) => rules.find((rule) => rule.id === id)?.name ?? 'the rule';
  const positionOf = (id: string | number) => shown.findIndex((rule) => rule.id === id) + 1;
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const from = rules.findIndex((rule) => rule.id === active.id);
    const to = rules.findIndex((rule) => rule.id === over?.id);
    if (from >= 0 && to >= 0 && from !== to) {
      move.mutate({ from, to });
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements: {
            onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at position ${positionOf(active.id)}.`,
            onDragOver: ({ active, over }) =>
              over
                ? `${nameOf(active.id)} is over position ${positionOf(over.id)}.`
                : `${nameOf(active.id)} is outside the list.`,
            onDragEnd: ({ active, over }) =>
              over ? `Dropped ${nameOf(active.id)} at position ${positionOf(over.id)}.` : `Dropped ${nameOf(active.id)}.`,
            onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
          },
        }}
      >
        <SortableContext items={shown.map((rule) => rule.id)} strategy={verticalListSortingStrategy}>
          <ol aria-label="Rules in evaluation order" className="flex flex-col gap-2">
            {shown.map((rule, position) => (
              <RuleCard
                key={rule.id}
                rule={rule}
                position={position}
                count={shown.length}
                catalog={catalog}
                teamName={teamName}
                busy={move.isPending}
                onMove={(to) => move.mutate({ from: position, to })}
                onEdit={() => onEdit(rule.id)}
                onDelete={() => setDeleting(rule)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <ErrorNotice error={move.error ?? remove.error} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={`Delete ${deleting?.name ?? 'the rule'}?`}
        description="Tickets stop being routed by it at once. This cannot be undone."
        confirmLabel="Delete rule"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
