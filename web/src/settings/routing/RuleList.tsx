import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SortableList } from '../../ui/sortable/SortableList';
import { useReorder } from '../../ui/sortable/use-reorder';
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
  const move = useReorder({
    queryKey: rulesKey,
    items: rules,
    send: (ruleIds) => reorderRules(teamId, ruleIds),
    renumber: (rule, evaluationOrder) => ({ ...rule, evaluationOrder }),
    onMoved: setAnnouncement,
  });
  const remove = useMutation({
    mutationFn: (rule: RoutingRule) => deleteRule(teamId, rule.id),
    onSuccess: async (_done, rule) => {
      setAnnouncement(`Deleted ${rule.name}.`);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: rulesKey });
    },
  });
  return (
    <div className="flex flex-col gap-2">
      <SortableList items={rules} label="Rules in evaluation order" onMove={move.moveItem}>
        {(rule, position) => (
          <RuleCard
            key={rule.id}
            rule={rule}
            position={position}
            count={rules.length}
            catalog={catalog}
            teamName={teamName}
            busy={move.busy}
            onMove={(to) => move.moveItem(position, to)}
            onEdit={() => onEdit(rule.id)}
            onDelete={() => setDeleting(rule)}
          />
        )}
      </SortableList>
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
