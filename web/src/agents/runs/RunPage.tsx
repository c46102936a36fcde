import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { agentQuery } from '../studio-queries';
import { RunStatusBadge } from './RunStatusBadge';
import { formatCost, formatCount, formatLatency, runQuery } from './run-queries';
import { ToolCallList } from './ToolCallList';

const LINK = 'text-blue-700 hover:underline dark:text-blue-400';

/** One run: its status, steps, tokens, cost and latency, every tool call, and its answer or error. */
export function RunPage() {
  const { agentId, runId } = useParams({ from: '/signed-in/agents/$agentId/runs/$runId' });
  const agent = useQuery(agentQuery(agentId));
  const run = useQuery(runQuery(agentId, runId));
  const data = run.data;
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title="Run" description={agent.data ? `A run of ${agent.data.name}` : undefined} />
      <div className="mx-auto flex max-w-4xl flex-col gap-6 p-4">
        <Link to="/agents/$agentId/runs" params={{ agentId }} className={`text-sm ${LINK}`}>
          ← Runs
        </Link>
        <ErrorNotice error={run.error} />
        {data ? (
          <>
            {data.error ? (
              <div
                role="alert"
                className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
              >
                <span className="font-medium">The run failed: </span>
                {data.error}
              </div>
            ) : null}
            <section aria-labelledby="run-summary" className="flex flex-col gap-2">
              <h2 id="run-summary" className="font-semibold">
                Summary
              </h2>
              <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-md border border-zinc-200 p-3 text-sm sm:grid-cols-2 dark:border-zinc-800">
                <Fact term="Status">
                  <RunStatusBadge status={data.status} />
                </Fact>
                <Fact term="Started by">{startedBy(data.trigger, data.thread_id, data.ticket_id, agentId)}</Fact>
                <Fact term="Model">{data.model ?? 'the provider’s default'}</Fact>
                <Fact term="Steps">{String(data.steps)}</Fact>
                <Fact term="Tokens">
                  {`${formatCount(data.total_tokens)} (${formatCount(data.input_tokens)} in, ${formatCount(data.output_tokens)} out)`}
                </Fact>
                <Fact term="Cost">{formatCost(data.cost)}</Fact>
                <Fact term="Latency">{formatLatency(data.latency_ms)}</Fact>
                <Fact term="Created">
                  <DateTime value={data.created_at} />
                </Fact>
                <Fact term="Finished">
                  <DateTime value={data.finished_at} empty="not yet" />
                </Fact>
              </dl>
            </section>
            <Passage title="Message">{data.input}</Passage>
            {data.final_text ? <Passage title="Answer">{data.final_text}</Passage> : null}
            {data.handoff_reason ? <Passage title="Handed to a person because">{data.handoff_reason}</Passage> : null}
            <section aria-labelledby="run-tool-calls" className="flex flex-col gap-2">
              <h2 id="run-tool-calls" className="font-semibold">
                Tool calls
              </h2>
              <ToolCallList calls={data.tool_calls} />
            </section>
          </>
        ) : null}
      </div>
    </div>
  );
}

function startedBy(trigger: string, threadId: string | null, ticketId: string | null, agentId: string): ReactNode {
  if (trigger === 'ticket' && ticketId) {
    return (
      <Link to="/tickets/$ticketId" params={{ ticketId }} className={LINK}>
        A ticket
      </Link>
    );
  }
  if (trigger === 'chat' && threadId) {
    return (
      <Link to="/agents/chats/$agentId/$threadId" params={{ agentId, threadId }} className={LINK}>
        A chat
      </Link>
    );
  }
  return trigger === 'messenger' ? 'A messenger visitor' : trigger;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline gap-2">
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function Passage({ title, children }: { title: string; children: string }) {
  return (
    <section className="flex flex-col gap-1">
      <h2 className="font-semibold">{title}</h2>
      <p className="whitespace-pre-wrap rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">{children}</p>
    </section>
  );
}
