import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { RuleCard } from './RuleCard';
import { deleteRule, type RoutingRule, reorderRules, rulesQuery } from './routing-api';
import { useConditionCatalog } from './use-condition-catalog';

/**
 * The team's rules in evaluation order. Drag a rule by its handle (pointer, or Space and the arrow
 * keys), or use Move up / Move down; each move sends the team's whole new order in one request,
 * rules at once and put back, with the API's message, if the API refuses it.
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
  const [announcement, setAnnouncement] = useState('');
  const [deleting, setDeleting] = useState<RoutingRule | null>(null);
  const rulesKey = rulesQuery(teamId).queryKey;
  const refresh = () => queryClient.invalidateQueries({ queryKey: rulesKey });
  const move = useMutation({
    mutationFn: ({ order }: { order: RoutingRule[]; moved: RoutingRule; to: number }) =>
      reorderRules(
        teamId,
        order.map((rule) => rule.id),
      ),
    onMutate: async ({ order }) => {
      await queryClient.cancelQueries({ queryKey: rulesKey });
      const previous = queryClient.getQueryData(rulesKey);
      queryClient.setQueryData(
        rulesKey,
        order.map((rule, evaluationOrder) => ({ ...rule, evaluationOrder })),
      );
      return { previous };
    },
    onError: (_error, _move, context) => {
      if (context?.previous) {
        queryClient.setQueryData(rulesKey, context.previous);
      }
    },
    onSuccess: (saved, { moved, to }) => {
      queryClient.setQueryData(rulesKey, saved);
      setAnnouncement(`Moved ${moved.name} to position ${to + 1}.`);
    },
    onSettled: () => refresh(),
  });
  /** Sends the order with the rule at `from` moved to `to`. */
  const moveRule = (from: number, to: number) => {
    const moved = rules[from];
    if (moved && from !== to && to >= 0 && to < rules.length) {
      move.mutate({ order: arrayMove(rules, from, to), moved, to });
    }
  };
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

  const nameOf = (id: string | number) => rules.find((rule) => rule.id === id)?.name ?? 'the rule';
  const positionOf = (id: string | number) => rules.findIndex((rule) => rule.id === id) + 1;
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const from = rules.findIndex((rule) => rule.id === active.id);
    const to = rules.findIndex((rule) => rule.id === over?.id);
    if (from >= 0 && to >= 0) {
      moveRule(from, to);
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
        <SortableContext items={rules.map((rule) => rule.id)} strategy={verticalListSortingStrategy}>
          <ol aria-label="Rules in evaluation order" className="flex flex-col gap-2">
            {rules.map((rule, position) => (
              <RuleCard
                key={rule.id}
                rule={rule}
                position={position}
                count={rules.length}
                catalog={catalog}
                teamName={teamName}
                busy={move.isPending}
                onMove={(to) => moveRule(position, to)}
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
