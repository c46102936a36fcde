import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { DataOf } from '../api/types';
import { ErrorNotice } from '../ui/ErrorNotice';
import { LoadMore } from '../ui/PageHeader';
import { SLA_METRIC_LABELS } from '../ui/sla-countdown';
import { useCursorPages } from '../ui/use-cursor-pages';
import { usersQuery } from './ticket-queries';

type SlaEvent = DataOf<'/v1/tickets/{id}/sla-events', 'get'>[number];

const KINDS: Record<SlaEvent['kind'], string> = {
  start: 'Started',
  pause: 'Paused',
  resume: 'Resumed',
  met: 'Met',
  warning: 'Warned',
  breach: 'Breached',
  policy_change: 'Policy changed',
  recalculated: 'Recalculated',
};

/** The query key of the history, so the page refreshes it when the ticket changes. */
export const slaEventsKey = (ticketKey: string) => ['tickets', ticketKey, 'sla-events'];

/** The ticket's auditable SLA clock, oldest first, behind a disclosure that loads it when opened. */
export function SlaHistory({ ticketKey }: { ticketKey: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="mt-3">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          className="flex w-full items-center gap-1 text-xs font-semibold text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-200"
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
          SLA history
        </button>
      </h3>
      {open ? (
        <div id={panelId} className="mt-2">
          <SlaEvents ticketKey={ticketKey} />
        </div>
      ) : null}
    </div>
  );
}

function SlaEvents({ ticketKey }: { ticketKey: string }) {
  const users = useQuery(usersQuery);
  const history = useCursorPages(slaEventsKey(ticketKey), (cursor) =>
    unwrap(
      api.GET('/v1/tickets/{id}/sla-events', {
        params: { path: { id: ticketKey }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  const actorOf = (event: SlaEvent): string => {
    if (event.actorType === 'system') {
      return 'System';
    }
    if (event.actorType === 'routing') {
      return 'Routing';
    }
    if (event.actorType === 'customer_contact') {
      return 'The customer';
    }
    return users.data?.find((user) => user.id === event.actorId)?.name ?? 'A user';
  };
  return (
    <div className="flex flex-col gap-2">
      <ErrorNotice error={history.error} />
      {history.isPending ? <p className="text-zinc-500">Loading…</p> : null}
      {!history.isPending && history.items.length === 0 ? (
        <p className="text-zinc-500 dark:text-zinc-400">No SLA events yet.</p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {history.items.map((event) => (
          <li key={event.id} className="flex flex-col gap-0.5 rounded-md bg-zinc-50 p-2 dark:bg-zinc-900">
            <p>
              <span className="font-medium">{KINDS[event.kind]}</span>
              {event.metric ? ` · ${SLA_METRIC_LABELS[event.metric]}` : null}
            </p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time> · {actorOf(event)}
            </p>
            {event.reason ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{event.reason}</p> : null}
          </li>
        ))}
      </ol>
      <LoadMore hasMore={history.hasMore} loading={history.loadingMore} onLoadMore={() => void history.loadMore()} />
    </div>
  );
}
