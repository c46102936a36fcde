import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { teamsQuery } from '../../api/ticket-options';
import type { Macro } from '../../api/types';
import { Badge } from '../../ui/Badge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { fetchMacroPage, MACRO_PAGES_KEY } from './macro-queries';

const LINK_BUTTON =
  'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700';

/** The macros an admin manages: their own and every one shared with a team, by name, a page at a time. */
export function MacrosPage() {
  const [search, setSearch] = useState('');
  const nameContains = useDebouncedValue(search.trim());
  const macros = useCursorPages([...MACRO_PAGES_KEY, nameContains], (cursor) => fetchMacroPage(nameContains, cursor));
  const teams = useQuery(teamsQuery);
  const teamName = (teamId: string) => teams.data?.find((team) => team.id === teamId)?.name ?? 'a team';
  return (
    <div>
      <PageHeader
        title="Macros"
        description="Canned replies agents apply to a ticket in one step, with the changes they make to it."
        actions={
          <Link to="/settings/macros/$macroId" params={{ macroId: 'new' }} className={LINK_BUTTON}>
            <Plus size={14} aria-hidden /> New macro
          </Link>
        }
      />
      <div className="p-4">
        <ErrorNotice error={macros.error} />
        {macros.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading macros…</p> : null}
        <input
          type="search"
          aria-label="Find a macro by name"
          placeholder="Find a macro by name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="mb-3 w-full max-w-sm rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        {!macros.isPending && !macros.error && macros.items.length === 0 ? (
          nameContains ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No macro’s name holds “{nameContains}”.</p>
          ) : (
            <NoMacros />
          )
        ) : null}
        {macros.items.length > 0 ? (
          <ul
            aria-label="Macros"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {macros.items.map((macro) => (
              <MacroRow
                key={macro.id}
                macro={macro}
                scope={macro.teamId ? `Shared with ${teamName(macro.teamId)}` : 'Personal'}
              />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={macros.hasMore} loading={macros.loadingMore} onLoadMore={() => void macros.loadMore()} />
      </div>
    </div>
  );
}

function MacroRow({ macro, scope }: { macro: Macro; scope: string }) {
  const actionCount = Object.keys(macro.actions).length;
  return (
    <li className="flex flex-col gap-1 px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to="/settings/macros/$macroId"
          params={{ macroId: macro.id }}
          className="min-w-0 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {macro.name}
        </Link>
        <Badge tone={macro.teamId ? 'blue' : 'neutral'}>{scope}</Badge>
        <Badge tone={macro.commentVisibility === 'private' ? 'amber' : 'green'}>
          {macro.commentVisibility === 'private' ? 'Internal note' : 'Public reply'}
        </Badge>
        {actionCount > 0 ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            {actionCount} {actionCount === 1 ? 'action' : 'actions'}
          </span>
        ) : null}
      </div>
      <p className="line-clamp-1 text-xs text-zinc-600 dark:text-zinc-400">{macro.description ?? macro.content}</p>
    </li>
  );
}

function NoMacros() {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm dark:border-zinc-700">
      <p className="font-medium">No macros yet</p>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        A macro posts a prepared reply, filled in with the ticket's details, and can set its status, priority, assignee and tags
        at the same time. Start with <strong>New macro</strong> for the answer your team writes most often.
      </p>
    </div>
  );
}
