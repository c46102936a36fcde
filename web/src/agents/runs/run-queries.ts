import { queryOptions } from '@tanstack/react-query';
import { type AgentRun, studio, unwrapStudio } from '../../api/agent-studio-client';
import type { CursorPage } from '../../ui/use-cursor-pages';
import { AGENTS_KEY } from '../studio-queries';

export type RunStatus = AgentRun['status'];

/** The statuses the runs list filters by, in the order a run passes through them. */
export const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'rejected'];

export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  awaiting_approval: 'Awaiting approval',
  succeeded: 'Succeeded',
  failed: 'Failed',
  rejected: 'Rejected',
};

const PAGE = 25;

export const runsKey = (agentId: string, status: RunStatus | undefined) => [...AGENTS_KEY, agentId, 'runs', status ?? 'all'];

/** A page of the agent's runs, newest first: the API's `x-next-cursor` header gives the next. */
export async function runsPage(agentId: string, status: RunStatus | undefined, cursor: string | undefined) {
  const call = studio.GET('/api/v1/agents/{agent_id}/runs', {
    params: {
      path: { agent_id: agentId },
      query: { limit: PAGE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) },
    },
  });
  const data = await unwrapStudio(call);
  return { data, nextCursor: (await call).response.headers.get('x-next-cursor') } satisfies CursorPage<AgentRun>;
}

export const runQuery = (agentId: string, runId: string) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, agentId, 'runs', 'one', runId],
    queryFn: () =>
      unwrapStudio(
        studio.GET('/api/v1/agents/{agent_id}/runs/{run_id}', { params: { path: { agent_id: agentId, run_id: runId } } }),
      ),
  });

/** `1,234`: token counts in the reader's own digits. */
export const formatCount = (value: number) => value.toLocaleString();

/** A run's cost as the provider's prices give it (no currency is stored: the prices' own unit). */
export const formatCost = (cost: number | null) => (cost === null ? 'no price set' : cost.toFixed(cost < 0.01 ? 6 : 4));

export const formatLatency = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
