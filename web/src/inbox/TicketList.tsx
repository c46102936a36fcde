import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { Ticket } from '../api/types';
import type { Selection } from './selection';
import { CARD_HEIGHT, TicketCard } from './TicketCard';
import { ROW_HEIGHT, TICKET_COLUMNS, TicketRow } from './TicketRow';
import { useNarrowScreen } from './use-narrow-screen';

/** Load the next page this many rows before the end, so scrolling rarely meets the bottom. */
const PREFETCH_ROWS = 30;

const HEADER_HEIGHT = 36;
const LOADER = 'absolute inset-x-0 top-0 block px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400';

const COLUMN_NAMES = ['Identifier', 'Title', 'Requestor', 'Status', 'Priority', 'Due', 'Assignee', 'Team', 'Tags', 'Updated'];

/**
 * The tickets of the open view, virtualised: only the rows in sight (and a few around) are in the
 * page, so thousands scroll smoothly; the next page loads as the end comes near. Columns on wide
 * screens, cards on phones.
 */
export function TicketList({
  tickets,
  selection,
  hasMore,
  loadingMore,
  onLoadMore,
  onToggle,
  onToggleAll,
  onFocus,
  label,
}: {
  tickets: readonly Ticket[];
  selection: Selection;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onToggle: (id: string, range: boolean) => void;
  onToggleAll: () => void;
  onFocus: (id: string) => void;
  label: string;
}) {
  const narrow = useNarrowScreen();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tickets.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => (narrow ? CARD_HEIGHT : ROW_HEIGHT),
    overscan: 12,
    // The wide list's sticky header sits above the rows, inside the scroller.
    scrollMargin: narrow ? 0 : HEADER_HEIGHT,
    scrollPaddingStart: narrow ? 0 : HEADER_HEIGHT,
    getItemKey: (index) => tickets[index]?.id ?? 'more',
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows change height with the layout.
  useEffect(() => {
    virtualizer.measure();
  }, [narrow, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= tickets.length - PREFETCH_ROWS) {
      onLoadMore();
    }
  }, [hasMore, loadingMore, lastIndex, tickets.length, onLoadMore]);

  // j/k keep the focused row in sight.
  const focusIndex = selection.focusId === null ? -1 : tickets.findIndex((ticket) => ticket.id === selection.focusId);
  useEffect(() => {
    if (focusIndex >= 0) {
      virtualizer.scrollToIndex(focusIndex, { align: 'auto' });
    }
  }, [focusIndex, virtualizer]);

  const allSelected = tickets.length > 0 && tickets.every((ticket) => selection.selected.has(ticket.id));
  const someSelected = selection.selected.size > 0 && !allSelected;
  const margin = virtualizer.options.scrollMargin;
  const rows = items.map((item) => {
    const ticket = tickets[item.index];
    const offset = item.start - margin;
    if (!ticket) {
      const loading = 'Loading more tickets…';
      return narrow ? (
        <li key={item.key} className={LOADER} style={{ transform: `translateY(${offset}px)` }}>
          {loading}
        </li>
      ) : (
        <tr key={item.key} className={LOADER} style={{ transform: `translateY(${offset}px)` }}>
          <td colSpan={COLUMN_NAMES.length + 1}>{loading}</td>
        </tr>
      );
    }
    const props = {
      ticket,
      index: item.index,
      offset,
      focused: ticket.id === selection.focusId,
      selected: selection.selected.has(ticket.id),
      onToggle,
      onFocus,
    };
    return narrow ? <TicketCard key={item.key} {...props} /> : <TicketRow key={item.key} {...props} />;
  });

  if (narrow) {
    return (
      <div ref={scroller} className="h-full overflow-y-auto">
        <ul aria-label={label} className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {rows}
        </ul>
      </div>
    );
  }
  return (
    <div ref={scroller} className="h-full overflow-auto">
      <table aria-label={label} aria-rowcount={hasMore ? -1 : tickets.length + 1} className="block min-w-[64rem]">
        <thead className="sticky top-0 z-10 block bg-white dark:bg-zinc-950">
          <tr
            aria-rowindex={1}
            style={{ height: HEADER_HEIGHT }}
            className={`${TICKET_COLUMNS} border-b border-zinc-200 px-2 text-left text-xs font-medium text-zinc-500 dark:border-zinc-800 dark:text-zinc-400`}
          >
            <th className="flex justify-center">
              <input
                type="checkbox"
                className="h-4 w-4 accent-blue-600"
                aria-label="Select all loaded tickets"
                checked={allSelected}
                ref={(input) => {
                  if (input) {
                    input.indeterminate = someSelected;
                  }
                }}
                onChange={onToggleAll}
              />
            </th>
            {COLUMN_NAMES.map((name) => (
              <th key={name} className={name === 'Updated' ? 'text-right font-medium' : 'font-medium'}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="relative block" style={{ height: virtualizer.getTotalSize() }}>
          {rows}
        </tbody>
      </table>
    </div>
  );
}
