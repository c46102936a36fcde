import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { AgentRun } from '../../api/agent-studio-client';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { Select } from '../../ui/Select';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { agentQuery } from '../studio-queries';
import { BackToAgent } from './BackLink';
import { EmptyNote } from './EmptyNote';
import { RunStatusBadge } from './RunStatusBadge';
import { formatCount, formatLatency, RUN_STATUS_LABELS, RUN_STATUSES, type RunStatus, runsKey, runsPage } from './run-queries';

const STATUS_OPTIONS = [
  { value: '', label: 'Every status' },
  ...RUN_STATUSES.map((status) => ({ value: status, label: RUN_STATUS_LABELS[status] })),
];

/** What the agent did: its runs, newest first, a page at a time, filtered by status. */
export function RunsPage() {
  const { agentId } = useParams({ from: '/signed-in/agents/$agentId/runs' });
  const agent = useQuery(agentQuery(agentId));
  const [status, setStatus] = useState<RunStatus | undefined>(undefined);
  const runs = useCursorPages(runsKey(agentId, status), (cursor) => runsPage(agentId, status, cursor));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title={agent.data ? `Runs of ${agent.data.name}` : 'Runs'}
        description="Each time the agent answered: in a chat, on a ticket or in the messenger. Admins see every run; others their own."
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <BackToAgent agentId={agentId} name={agent.data?.name} />
          <Select
            label="Status"
            options={STATUS_OPTIONS}
            value={status ?? ''}
            onChange={(event) => setStatus((event.target.value || undefined) as RunStatus | undefined)}
          />
        </div>
        <ErrorNotice error={agent.error ?? runs.error} />
        {!runs.isPending && !runs.error && runs.items.length === 0 ? (
          <EmptyNote title={status ? `No ${RUN_STATUS_LABELS[status].toLowerCase()} runs` : 'No runs yet'}>
            {status
              ? 'Choose "Every status" to see the other runs.'
              : 'A run starts when someone chats with the agent, or when a team that has it answers a ticket (Settings → Teams).'}
          </EmptyNote>
        ) : runs.items.length > 0 ? (
          <ul
            aria-label="Runs"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {runs.items.map((run) => (
              <RunRow key={run.id} agentId={agentId} run={run} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={runs.hasMore} loading={runs.loadingMore} onLoadMore={() => void runs.loadMore()} />
      </div>
    </div>
  );
}

const TRIGGERS: Record<AgentRun['trigger'], string> = { chat: 'Chat', ticket: 'Ticket', messenger: 'Messenger' };

function RunRow({ agentId, run }: { agentId: string; run: AgentRun }) {
  return (
    <li className="flex flex-col gap-1 px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to="/agents/$agentId/runs/$runId"
          params={{ agentId, runId: run.id }}
          className="min-w-0 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {run.input.trim() || '(no message)'}
        </Link>
        <RunStatusBadge status={run.status} />
      </div>
      <p className="flex flex-wrap gap-x-3 text-sm text-zinc-600 dark:text-zinc-400">
        <span>{TRIGGERS[run.trigger]}</span>
        <DateTime value={run.created_at} />
        <span>{`${formatCount(run.total_tokens)} tokens`}</span>
        <span>{`${run.steps} ${run.steps === 1 ? 'step' : 'steps'}`}</span>
        <span>{formatLatency(run.latency_ms)}</span>
      </p>
    </li>
  );
}
