import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { SlaPolicyForm } from './SlaPolicyForm';
import { SlaPolicyList } from './SlaPolicyList';
import { type SlaPolicy, slaPoliciesQuery } from './sla-policy-api';
import { type SlaChoices, useSlaChoices } from './use-sla-choices';

/** What the address says: the policy open in the form (`new` for a new one). */
export interface SlaPoliciesSearch {
  policy?: string;
}

/**
 * /settings/sla-policies: the organization's SLA policies in evaluation order (the first whose
 * conditions a ticket meets sets its targets) and the policy form; the open policy is in the
 * address, so it can be linked.
 */
export function SlaPoliciesPage() {
  const search = useSearch({ strict: false }) as SlaPoliciesSearch;
  const navigate = useNavigate();
  const policies = useQuery(slaPoliciesQuery);
  const choices = useSlaChoices();
  const go = (next: SlaPoliciesSearch, options: { ignoreBlocker?: boolean } = {}) =>
    void navigate({ to: '/settings/sla-policies', search: next, ...options });
  return (
    <div className="flex flex-col">
      <PageHeader
        title="SLA policies"
        description="Policies set how soon tickets must be answered and resolved. They are tried in order; the first whose conditions a ticket meets sets its targets."
        actions={
          search.policy ? null : (
            <Button variant="primary" onClick={() => go({ policy: 'new' })}>
              <Plus size={14} aria-hidden />
              New policy
            </Button>
          )
        }
      />
      <div className="flex flex-col gap-4 p-4">
        <ErrorNotice error={policies.error ?? choices.error} />
        {policies.isPending ? <p className="text-sm text-zinc-500">Loading policies…</p> : null}
        {search.policy && policies.data ? (
          <PolicyEditor
            policyParam={search.policy}
            choices={choices}
            policies={policies.data}
            onClose={(saved) => go({}, { ignoreBlocker: saved })}
          />
        ) : null}
        {!search.policy && policies.data?.length === 0 ? <EmptyState /> : null}
        {!search.policy && policies.data && policies.data.length > 0 ? (
          <SlaPolicyList policies={policies.data} choices={choices} onEdit={(policy) => go({ policy })} />
        ) : null}
      </div>
    </div>
  );
}

function PolicyEditor({
  policyParam,
  policies,
  choices,
  onClose,
}: {
  policyParam: string;
  policies: SlaPolicy[];
  choices: SlaChoices;
  onClose: (saved: boolean) => void;
}) {
  const policy = policies.find((candidate) => candidate.id === policyParam);
  if (policyParam !== 'new' && !policy) {
    return <ErrorNotice error="This policy no longer exists." />;
  }
  if (!choices.ready) {
    // The form's rows are the teams' priorities: it opens once they are read.
    return <p className="text-sm text-zinc-500">Loading the teams' priorities…</p>;
  }
  return (
    <SlaPolicyForm
      key={policyParam}
      policy={policy}
      choices={choices}
      onSaved={() => onClose(true)}
      onCancel={() => onClose(false)}
    />
  );
}

function EmptyState() {
  return (
    <div className="flex max-w-2xl flex-col gap-2 text-sm text-zinc-600 dark:text-zinc-400">
      <p>There are no SLA policies yet, so tickets have no reply or resolution targets.</p>
      <p>
        An SLA policy promises how soon tickets are answered: the first reply, each next reply, regular updates and the
        resolution, in minutes per priority, counted in the team's business hours or around the clock. Its conditions say which
        tickets it covers (a team, a priority, a customer's account…). The inbox and each ticket then show the time left, and warn
        before a target is missed.
      </p>
      <p>Add one with “New policy”.</p>
    </div>
  );
}
