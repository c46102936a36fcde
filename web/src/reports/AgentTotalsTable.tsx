import { useQuery } from '@tanstack/react-query';
import { usersQuery } from '../api/ticket-options';
import { percentOf } from './percent';
import type { AgentTotals } from './report-catalog';

const cell = 'px-3 py-1.5 text-right tabular-nums';

/** Each agent's totals over the range, named from the organization's users. */
export function AgentTotalsTable({ agents }: { agents: readonly AgentTotals[] }) {
  const users = useQuery(usersQuery).data ?? [];
  const nameOf = (agentId: string | null) =>
    agentId === null ? 'No assignee' : (users.find((user) => user.id === agentId)?.name ?? agentId);
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-sm">
        <caption className="sr-only">Per agent, over the range</caption>
        <thead className="bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className="px-3 py-1.5 text-left font-medium">
              Agent
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Tickets handled
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Public replies
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Median first reply (min)
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              SLA met (%)
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Good ratings (%)
            </th>
          </tr>
        </thead>
        <tbody>
          {agents.length === 0 ? (
            <tr>
              <td colSpan={6} className="px-3 py-3 text-center text-zinc-600 dark:text-zinc-400">
                No agent activity in this range.
              </td>
            </tr>
          ) : (
            agents.map((agent) => (
              <tr key={agent.agentId ?? 'none'} className="border-t border-zinc-200 dark:border-zinc-800">
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {nameOf(agent.agentId)}
                </th>
                <td className={cell}>{agent.ticketsHandled}</td>
                <td className={cell}>{agent.publicReplies}</td>
                <td className={cell}>{agent.firstReplyMedian ?? '—'}</td>
                <td className={cell}>{percentOf(agent.slaAttainment) ?? '—'}</td>
                <td className={cell}>{percentOf(agent.goodShare) ?? '—'}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
