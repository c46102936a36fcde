import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { fetchSlackDecisionPage, SLACK_KEY, type SlackDecision, slackReportQuery, useMarkSlackDecision } from './slack-queries';

const percent = (ratio: number | null) => (ratio === null ? '—' : `${Math.round(ratio * 100)}%`);

/** Precision and recall of request detection per channel and mode, from the decisions marked below. */
function DetectionReport() {
  const report = useQuery(slackReportQuery);
  const rows = report.data ?? [];
  return (
    <section aria-labelledby="detection-report-title" className="flex flex-col gap-2">
      <h2 id="detection-report-title" className="text-base font-semibold">
        Accuracy
      </h2>
      <ErrorNotice error={report.error} />
      {rows.length === 0 && !report.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No decisions yet.</p>
      ) : null}
      {rows.length > 0 ? (
        <table aria-label="Detection accuracy" className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-1 pr-3">
                Channel
              </th>
              <th scope="col" className="py-1 pr-3">
                Mode
              </th>
              <th scope="col" className="py-1 pr-3">
                Marked
              </th>
              <th scope="col" className="py-1 pr-3">
                Unmarked
              </th>
              <th scope="col" className="py-1 pr-3">
                Precision
              </th>
              <th scope="col" className="py-1 pr-3">
                Recall
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.channelId} ${row.mode}`} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1 pr-3">#{row.channelName ?? row.channelId}</td>
                <td className="py-1 pr-3">{row.mode}</td>
                <td className="py-1 pr-3">{row.marked}</td>
                <td className="py-1 pr-3">{row.unmarked}</td>
                <td className="py-1 pr-3">{percent(row.precision)}</td>
                <td className="py-1 pr-3">{percent(row.recall)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function DecisionItem({ decision }: { decision: SlackDecision }) {
  const mark = useMarkSlackDecision();
  const toggle = (value: 'right' | 'wrong') => mark.mutate({ id: decision.id, mark: decision.mark === value ? null : value });
  const label = decision.text.length > 60 ? `${decision.text.slice(0, 60)}…` : decision.text;
  return (
    <li className="flex flex-col gap-1 px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={decision.isRequest ? 'blue' : 'neutral'}>{decision.isRequest ? 'Request' : 'Not a request'}</Badge>
        <span className="text-zinc-600 dark:text-zinc-400">
          #{decision.channelName ?? decision.channelId} · {decision.mode} · <DateTime value={decision.createdAt} />
        </span>
        <span className="ml-auto flex gap-2">
          <Button
            aria-pressed={decision.mark === 'right'}
            aria-label={`Right: ${label}`}
            disabled={mark.isPending}
            onClick={() => toggle('right')}
          >
            Right
          </Button>
          <Button
            aria-pressed={decision.mark === 'wrong'}
            aria-label={`Wrong: ${label}`}
            disabled={mark.isPending}
            onClick={() => toggle('wrong')}
          >
            Wrong
          </Button>
        </span>
      </div>
      <p className="whitespace-pre-wrap">{decision.text}</p>
      <p className="text-zinc-600 dark:text-zinc-400">{decision.reason}</p>
      <ErrorNotice error={mark.error} />
    </li>
  );
}

/** The detection decisions, newest first, each marked right or wrong here, and the accuracy those marks give. */
export function DetectionPanel() {
  const decisions = useCursorPages([...SLACK_KEY, 'decisions'], fetchSlackDecisionPage({}));
  return (
    <div className="flex flex-col gap-6 p-4">
      <DetectionReport />
      <section aria-labelledby="decisions-title" className="flex flex-col gap-2">
        <h2 id="decisions-title" className="text-base font-semibold">
          Decisions
        </h2>
        <ErrorNotice error={decisions.error} />
        {!decisions.isPending && decisions.items.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No messages read in customer channels yet.</p>
        ) : null}
        {decisions.items.length > 0 ? (
          <ul
            aria-label="Detection decisions"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {decisions.items.map((decision) => (
              <DecisionItem key={decision.id} decision={decision} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={decisions.hasMore} loading={decisions.loadingMore} onLoadMore={() => void decisions.loadMore()} />
      </section>
    </div>
  );
}
