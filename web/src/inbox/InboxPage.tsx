import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useInboxOptions } from '../api/ticket-options';
import type { BulkTicketChange } from '../api/types';
import { ErrorNotice } from '../ui/ErrorNotice';
import { AssignDialog } from './AssignDialog';
import { BulkBar } from './BulkBar';
import { FilterBar } from './FilterBar';
import { InboxHeading } from './InboxHeading';
import type { InboxSearch } from './inbox-search';
import { ShortcutsDialog } from './ShortcutsDialog';
import { clearSelection, focus, selectRange, targetIds, toggle, toggleAll } from './selection';
import { TicketList } from './TicketList';
import { type TicketQuery, ticketQueryOf } from './ticket-query';
import { useBulkUpdate } from './use-bulk-update';
import { useInboxSelection } from './use-inbox-selection';
import { useInboxShortcuts } from './use-inbox-shortcuts';
import { useTicketList } from './use-ticket-list';
import { viewsQuery } from './views';

/** The tickets of the open view, narrowed by the filter bar, worked with the mouse or the keyboard. */
export function InboxPage() {
  const search = useSearch({ from: '/signed-in/' });
  const navigate = useNavigate({ from: '/' });
  const views = useQuery(viewsQuery);
  const view = search.view ? views.data?.find((candidate) => candidate.id === search.view) : views.data?.[0];
  // By value: the views reload with new counts on every live event, and the same filters must
  // stay the same list (and keep the selection).
  const queryJson = JSON.stringify(view ? ticketQueryOf(view, search) : null);
  const query = useMemo(() => JSON.parse(queryJson) as TicketQuery | null, [queryJson]);
  const { list, tickets, applyTickets } = useTicketList(query);
  const options = useInboxOptions();
  const bulk = useBulkUpdate(applyTickets);

  const ids = useMemo(() => tickets.map((ticket) => ticket.id), [tickets]);
  const [selection, setSelection] = useInboxSelection(ids, queryJson);
  const [assigning, setAssigning] = useState<string[] | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);

  const change = useCallback(
    (ticketIds: string[], change: BulkTicketChange) => {
      if (ticketIds.length > 0) {
        bulk.mutate({ ticketIds, change }, { onSuccess: () => setSelection(clearSelection) });
      }
    },
    [bulk, setSelection],
  );
  useInboxShortcuts({ selection, ids, change, closeStatus: options.closedStatus, setSelection, setAssigning, setHelpOpen });

  const onToggle = useCallback(
    (id: string, range: boolean) => setSelection((state) => (range ? selectRange(state, ids, id) : toggle(state, id))),
    [ids, setSelection],
  );
  const onFocus = useCallback((id: string) => setSelection((state) => focus(state, id)), [setSelection]);
  const loadMore = useCallback(() => void list.fetchNextPage(), [list.fetchNextPage]);

  const selectedIds = targetIds({ ...selection, focusId: null }, ids);
  const error = views.error ?? list.error ?? bulk.error ?? options.error;
  const viewMissing = views.isSuccess && search.view !== undefined && !view;
  return (
    <div className="flex h-full flex-col">
      <InboxHeading
        title={view?.name ?? 'Inbox'}
        count={list.isSuccess ? tickets.length : null}
        hasMore={list.hasNextPage}
        onShowShortcuts={() => setHelpOpen(true)}
      />
      <FilterBar search={search} options={options} onChange={(next: InboxSearch) => void navigate({ search: next })} />
      {selectedIds.length > 0 ? (
        <BulkBar
          count={selectedIds.length}
          options={options}
          busy={bulk.isPending}
          onChange={(next) => change(selectedIds, next)}
          onAssign={() => setAssigning(selectedIds)}
          onClear={() => setSelection(clearSelection)}
          onSelectAll={() => setSelection((state) => toggleAll(clearSelection(state), ids))}
        />
      ) : null}
      <ErrorNotice error={error} className="mx-3 my-2" />
      {viewMissing ? <ErrorNotice error="This view does not exist or is not shared with you." className="mx-3 my-2" /> : null}
      <div className="min-h-0 flex-1">
        {query === null && view ? (
          <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">This view selects no ticket: you are in no team.</p>
        ) : list.isPending && query !== null ? (
          <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400" aria-live="polite">
            Loading tickets…
          </p>
        ) : list.isSuccess && tickets.length === 0 ? (
          <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">No tickets here.</p>
        ) : (
          <TicketList
            label={view?.name ?? 'Tickets'}
            tickets={tickets}
            selection={selection}
            hasMore={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            onLoadMore={loadMore}
            onToggle={onToggle}
            onToggleAll={() => setSelection((state) => toggleAll(state, ids))}
            onFocus={onFocus}
          />
        )}
      </div>
      <AssignDialog
        open={assigning !== null}
        onOpenChange={(open) => !open && setAssigning(null)}
        users={options.users}
        count={assigning?.length ?? 0}
        onAssign={(userId) => change(assigning ?? [], { assignedAgentId: userId })}
      />
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}
