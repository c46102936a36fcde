import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useMatchRoute, useSearch } from '@tanstack/react-router';
import { useRef } from 'react';
import { useLiveEvents } from '../live/events';
import { ErrorNotice } from '../ui/ErrorNotice';
import type { InboxSearch } from './inbox-search';
import { type View, viewsQuery } from './views';

/** Counts cost a query per view: a burst of ticket events reloads them at most this often. */
const COUNT_REFRESH_MS = 2_000;

function countLabel(view: View): string {
  if (view.ticketCount === null) {
    return '–';
  }
  return view.ticketCountIsCapped ? `${view.ticketCount}+` : String(view.ticketCount);
}

/** Reloads the views (and their counts) after ticket and SLA events, at most once per interval, the last event always included. */
function useCountRefresh() {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastRun = useRef(0);
  const refresh = () => {
    lastRun.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: viewsQuery.queryKey });
  };
  useLiveEvents((event) => {
    // An SLA warning or breach moves tickets in and out of the SLA views (Breaching soon).
    const counted = event.type.startsWith('ticket.') || event.type.startsWith('sla.');
    if (!counted || timer.current) {
      return;
    }
    const wait = Math.max(0, lastRun.current + COUNT_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      refresh();
    }, wait);
  }, refresh);
}

/** The left rail: the built-in views, then saved ones, each with how many tickets it holds; the open one marked. */
export function InboxRail() {
  const views = useQuery(viewsQuery);
  useCountRefresh();
  const matchRoute = useMatchRoute();
  const search = useSearch({ strict: false }) as InboxSearch;
  const onInbox = Boolean(matchRoute({ to: '/' }));
  const openId = onInbox ? (search.view ?? views.data?.[0]?.id) : undefined;
  const builtIn = views.data?.filter((view) => view.isBuiltIn) ?? [];
  const saved = views.data?.filter((view) => !view.isBuiltIn) ?? [];
  return (
    <div className="flex flex-col gap-0.5 p-2">
      <ErrorNotice error={views.error} />
      {builtIn.map((view) => (
        <ViewLink key={view.id} view={view} open={view.id === openId} />
      ))}
      {saved.length > 0 ? (
        <h2 className="px-2 pt-3 pb-1 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
          Saved views
        </h2>
      ) : null}
      {saved.map((view) => (
        <ViewLink key={view.id} view={view} open={view.id === openId} />
      ))}
    </div>
  );
}

function ViewLink({ view, open }: { view: View; open: boolean }) {
  return (
    <Link
      to="/"
      search={{ view: view.id }}
      aria-current={open ? 'page' : undefined}
      activeOptions={{ exact: true, includeSearch: true }}
      className={`flex items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
        open ? 'bg-zinc-100 font-medium dark:bg-zinc-800' : ''
      }`}
    >
      <span className="truncate">{view.name}</span>
      <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
        {countLabel(view)}
        <span className="sr-only"> tickets</span>
      </span>
    </Link>
  );
}
