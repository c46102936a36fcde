import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SortableList } from '../../ui/sortable/SortableList';
import { useReorder } from '../../ui/sortable/use-reorder';
import { SlaPolicyCard } from './SlaPolicyCard';
import { deletePolicy, reorderPolicies, type SlaPolicy, slaPoliciesQuery } from './sla-policy-api';
import type { SlaChoices } from './use-sla-choices';

/**
 * The policies in evaluation order, reordered as routing rules are: drag a policy by its handle
 * (pointer, or Space and the arrow keys) or use Move up / Move down; each move sends the whole
 * order in one request, and a refused one is put back with the API's message.
 */
export function SlaPolicyList({
  policies,
  choices,
  onEdit,
}: {
  policies: SlaPolicy[];
  choices: SlaChoices;
  onEdit: (policyId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [announcement, setAnnouncement] = useState('');
  const [deleting, setDeleting] = useState<SlaPolicy | null>(null);
  const move = useReorder({
    queryKey: slaPoliciesQuery.queryKey,
    items: policies,
    send: reorderPolicies,
    renumber: (policy, position) => ({ ...policy, position }),
    onMoved: setAnnouncement,
  });
  const remove = useMutation({
    mutationFn: (policy: SlaPolicy) => deletePolicy(policy.id),
    onSuccess: async (_done, policy) => {
      setAnnouncement(`Deleted ${policy.name}.`);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: slaPoliciesQuery.queryKey });
    },
  });
  return (
    <div className="flex flex-col gap-2">
      <SortableList items={policies} label="SLA policies in evaluation order" onMove={move.moveItem}>
        {(policy, position) => (
          <SlaPolicyCard
            key={policy.id}
            policy={policy}
            position={position}
            count={policies.length}
            catalog={choices.catalog}
            priorities={choices.priorities}
            busy={move.busy}
            onMove={(to) => move.moveItem(position, to)}
            onEdit={() => onEdit(policy.id)}
            onDelete={() => setDeleting(policy)}
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
        title={`Delete ${deleting?.name ?? 'the policy'}?`}
        description="New tickets stop getting its targets at once; tickets it already governs keep theirs. This cannot be undone."
        confirmLabel="Delete policy"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
