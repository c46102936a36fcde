import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { Select } from '../../ui/Select';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { BackToAgent } from '../runs/BackLink';
import { EmptyNote } from '../runs/EmptyNote';
import { agentQuery } from '../studio-queries';
import { GapItem } from './GapItem';
import { DEFAULT_DAYS, GAP_DAYS, gapsKey, gapsPage, helpCenterChoicesQuery } from './gap-queries';

const DAY_OPTIONS = GAP_DAYS.map((days) => ({ value: String(days), label: `Last ${days} days` }));

/**
 * The questions customers asked on tickets that the agent handed to a person because no published
 * article answered them, grouped by wording, most asked first: what to write next.
 */
export function KnowledgeGapsPage() {
  const { agentId } = useParams({ from: '/signed-in/agents/$agentId/knowledge-gaps' });
  const agent = useQuery(agentQuery(agentId));
  const [days, setDays] = useState<number>(DEFAULT_DAYS);
  const gaps = useCursorPages(gapsKey(agentId, days), (cursor) => gapsPage(agentId, days, cursor));
  const helpCenters = useQuery(helpCenterChoicesQuery);
  const [chosen, setChosen] = useState<string | null>(null);
  const choices = helpCenters.data ?? [];
  // The one chosen while it still exists, else the oldest: an organization with one never chooses.
  const helpCenterId = choices.find((center) => center._id === chosen)?._id ?? choices[0]?._id ?? null;
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title="Knowledge gaps"
        description={`Customer questions ${agent.data?.name ?? 'the agent'} handed to a person because no published article answered them.`}
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <BackToAgent agentId={agentId} name={agent.data?.name} />
          <div className="flex flex-wrap items-center gap-3">
            <Select
              label="Asked in"
              options={DAY_OPTIONS}
              value={String(days)}
              onChange={(event) => setDays(Number(event.target.value))}
            />
            {choices.length > 1 ? (
              <Select
                label="New articles go to"
                options={choices.map((center) => ({ value: center._id, label: center.name }))}
                value={helpCenterId ?? ''}
                onChange={(event) => setChosen(event.target.value)}
              />
            ) : null}
          </div>
        </div>
        <ErrorNotice error={gaps.error ?? helpCenters.error} />
        {helpCenters.data && choices.length === 0 ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
            {'To write the missing articles, first make a help center in '}
            <Link to="/knowledge" className="font-medium underline">
              Knowledge
            </Link>
            .
          </p>
        ) : null}
        {!gaps.isPending && !gaps.error && gaps.items.length === 0 ? (
          <EmptyNote title={`No knowledge gaps in the last ${days} days`}>
            When the agent, answering tickets for a team, hands a customer’s question to a person because no published article
            answers it, the question is listed here with a button to write that article. Try a longer range.
          </EmptyNote>
        ) : gaps.items.length > 0 ? (
          <ul aria-label="Knowledge gaps" className="flex flex-col gap-3">
            {gaps.items.map((gap) => (
              <GapItem key={gap.newest.run_id} gap={gap} helpCenterId={helpCenterId} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={gaps.hasMore} loading={gaps.loadingMore} onLoadMore={() => void gaps.loadMore()} />
      </div>
    </div>
  );
}
