import { Link } from '@tanstack/react-router';
import { Plus, Webhook as WebhookIcon } from 'lucide-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { WebhookStatus } from './WebhookStatus';
import { fetchWebhookPage, WEBHOOKS_KEY, type Webhook } from './webhook-queries';

const NEW_WEBHOOK_CLASS =
  'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700';

/** The organization's webhooks, oldest first, a page at a time. */
export function WebhooksPage() {
  const list = useCursorPages([...WEBHOOKS_KEY, 'list'], fetchWebhookPage);
  return (
    <div>
      <PageHeader
        title="Webhooks"
        description="Endpoints of yours that receive the helpdesk's events, signed, as they happen."
        actions={
          <Link to="/settings/webhooks/new" className={NEW_WEBHOOK_CLASS}>
            <Plus size={16} aria-hidden />
            New webhook
          </Link>
        }
      />
      <div className="p-4">
        <ErrorNotice error={list.error} />
        {list.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading webhooks…</p> : null}
        {!list.isPending && !list.error && list.items.length === 0 ? <NoWebhooks /> : null}
        {list.items.length > 0 ? (
          <ul
            aria-label="Webhooks"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {list.items.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoadMore={() => void list.loadMore()} />
      </div>
    </div>
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
      <div className="flex min-w-0 flex-1 flex-col">
        <Link
          to="/settings/webhooks/$webhookId"
          params={{ webhookId: webhook.id }}
          className="truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {webhook.url}
        </Link>
        {webhook.description ? <span className="truncate text-zinc-600 dark:text-zinc-400">{webhook.description}</span> : null}
      </div>
      <span className="text-xs text-zinc-500 dark:text-zinc-400">
        {webhook.eventTypes.length} event type{webhook.eventTypes.length === 1 ? '' : 's'}
      </span>
      <WebhookStatus webhook={webhook} />
    </li>
  );
}

function NoWebhooks() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-2 py-10 text-center">
      <WebhookIcon size={28} aria-hidden className="text-zinc-400" />
      <h2 className="text-base font-semibold">No webhooks yet</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Add one with “New webhook” to send ticket, comment and other events to your own systems. You get its signing secret once,
        to verify each delivery.
      </p>
    </div>
  );
}
