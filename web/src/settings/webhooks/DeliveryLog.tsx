import { History } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import {
  attemptProblem,
  type DeliveryAttempt,
  deliveriesKey,
  fetchDeliveryPage,
  retryDelivery,
  useWebhookAction,
  type WebhookDelivery,
} from './webhook-queries';

const STATUSES: Record<WebhookDelivery['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  delivering: { label: 'Delivering', tone: 'blue' },
  delivered: { label: 'Delivered', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

const REFRESH_UNSETTLED_MS = 3000;

const when = (iso: string) => new Date(iso).toLocaleString();

/** The webhook's deliveries, newest first, a page at a time, each with every attempt and what came back. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const log = useCursorPages(deliveriesKey(webhookId), fetchDeliveryPage(webhookId));
  // While a delivery is still on its way (a retry, an event just dispatched), look again until it settles.
  const unsettled = log.items.some((delivery) => delivery.status === 'pending' || delivery.status === 'delivering');
  const refetch = useRef(log.refetch);
  refetch.current = log.refetch;
  useEffect(() => {
    if (!unsettled) {
      return;
    }
    const timer = setInterval(() => void refetch.current(), REFRESH_UNSETTLED_MS);
    return () => clearInterval(timer);
  }, [unsettled]);
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="deliveries-title" className="text-base font-semibold">
          Deliveries
        </h2>
        <Button variant="ghost" onClick={() => void log.refetch()}>
          Refresh
        </Button>
      </div>
      <ErrorNotice error={log.error} />
      {log.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading deliveries…</p> : null}
      {!log.isPending && !log.error && log.items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <History size={16} aria-hidden />
          Nothing delivered yet. Send a test event, or wait for one of the chosen events to happen.
        </p>
      ) : null}
      {log.items.length > 0 ? (
        <ul aria-label="Delivery log" className="flex flex-col gap-2">
          {log.items.map((delivery) => (
            <DeliveryItem key={delivery.id} webhookId={webhookId} delivery={delivery} />
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={log.hasMore} loading={log.loadingMore} onLoadMore={() => void log.loadMore()} />
    </section>
  );
}

function DeliveryItem({ webhookId, delivery }: { webhookId: string; delivery: WebhookDelivery }) {
  const retry = useWebhookAction(webhookId, retryDelivery(webhookId, delivery.id));
  const status = STATUSES[delivery.status];
  return (
    <li className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs">{delivery.eventType}</span>
        <Badge tone={status.tone}>{status.label}</Badge>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{when(delivery.createdAt)}</span>
        {delivery.status === 'pending' && delivery.nextAttemptAt ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">next attempt {when(delivery.nextAttemptAt)}</span>
        ) : null}
        {delivery.status === 'failed' ? (
          <Button
            className="ml-auto"
            disabled={retry.isPending || retry.isSuccess}
            onClick={() => retry.mutate()}
            aria-label={`Retry the ${delivery.eventType} delivery of ${when(delivery.createdAt)}`}
          >
            {retry.isSuccess ? 'Retry queued' : 'Retry'}
          </Button>
        ) : null}
      </div>
      {delivery.attempts.length > 0 ? (
        <ol aria-label="Attempts" className="mt-2 flex flex-col gap-1 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700">
          {delivery.attempts.map((attempt) => (
            <AttemptLine key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      ) : (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">No attempt yet.</p>
      )}
      <ErrorNotice error={retry.error} className="mt-2" />
    </li>
  );
}

function AttemptLine({ attempt }: { attempt: DeliveryAttempt }) {
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  return (
    <li className="text-xs">
      <span className={ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300'}>
        {attempt.statusCode === null ? 'No response' : `HTTP ${attempt.statusCode}`}
      </span>
      <span className="text-zinc-600 dark:text-zinc-400">
        {' · '}
        {attempt.latencyMs} ms · {when(attempt.startedAt)}
      </span>
      {attemptProblem(attempt) ? <span className="block text-red-800 dark:text-red-300">{attemptProblem(attempt)}</span> : null}
      {attempt.responseBody ? (
        <details className="mt-0.5">
          <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
            Response body{attempt.responseTruncated ? ' (start)' : ''}
          </summary>
          <pre className="mt-1 max-h-40 overflow-auto rounded bg-zinc-100 p-2 whitespace-pre-wrap break-all dark:bg-zinc-800">
            {attempt.responseBody}
          </pre>
        </details>
      ) : null}
    </li>
  );
}
