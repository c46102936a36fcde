import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { teamsQuery } from '../../api/ticket-options';
import type { TicketView } from '../../api/types';
import { Badge } from '../../ui/Badge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { TICKET_SORT_LABELS } from '../../ui/ticket-sort-labels';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { fetchSavedViewPage, ticketCountText, VIEW_PAGES_KEY } from './view-queries';

const LINK_BUTTON =
  'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700';

/** The saved views an admin manages: their own and every one shared with a team, by name, with their counts. */
export function ViewsPage() {
  const views = useCursorPages(VIEW_PAGES_KEY, fetchSavedViewPage);
  const teams = useQuery(teamsQuery);
  const teamName = (teamId: string) => teams.data?.find((team) => team.id === teamId)?.name ?? 'a team';
  return (
    <div>
      <PageHeader
        title="Views"
        description="Saved filters of the ticket list, shown with their counts in the inbox's rail."
        actions={
          <Link to="/settings/views/$viewId" params={{ viewId: 'new' }} className={LINK_BUTTON}>
            <Plus size={14} aria-hidden /> New view
          </Link>
        }
      />
      <div className="p-4">
        <ErrorNotice error={views.error} />
        {views.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading views…</p> : null}
        {!views.isPending && !views.error && views.items.length === 0 ? <NoViews /> : null}
        {views.items.length > 0 ? (
          <ul
            aria-label="Views"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {views.items.map((view) => (
              <ViewRow key={view.id} view={view} scope={view.teamId ? `Shared with ${teamName(view.teamId)}` : 'Personal'} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={views.hasMore} loading={views.loadingMore} onLoadMore={() => void views.loadMore()} />
      </div>
    </div>
  );
}

function ViewRow({ view, scope }: { view: TicketView; scope: string }) {
  const filterCount = Object.keys(view.filters).length;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900">
      <Link
        to="/settings/views/$viewId"
        params={{ viewId: view.id }}
        className="min-w-0 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
      >
        {view.name}
      </Link>
      <Badge tone={view.teamId ? 'blue' : 'neutral'}>{scope}</Badge>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">
        {filterCount} {filterCount === 1 ? 'filter' : 'filters'} · {TICKET_SORT_LABELS[view.sort]}
      </span>
      <span className="ml-auto text-xs text-zinc-600 tabular-nums dark:text-zinc-400">{ticketCountText(view)}</span>
    </li>
  );
}

function NoViews() {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm dark:border-zinc-700">
      <p className="font-medium">No saved views yet</p>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        A view is a named filter of the tickets, such as "Urgent billing" or "Waiting on me", listed in the inbox with how many
        tickets it holds. Share one with a team so its agents see it too: start with <strong>New view</strong>.
      </p>
    </div>
  );
}
