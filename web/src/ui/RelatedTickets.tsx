import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from './ErrorNotice';
import { LoadMore } from './PageHeader';
import { useCursorPages } from './use-cursor-pages';

const PAGE_SIZE = 25;

/**
 * The tickets of an account or a contact, newest first, each a link to its ticket page; a page
 * at a time, so a customer with thousands of tickets costs one request.
 */
export function RelatedTickets({
  filter,
  emptyText,
}: {
  filter: { accountId: string } | { customerContactId: string };
  emptyText: string;
}) {
  const tickets = useCursorPages(['tickets', 'related', filter], async (cursor) => {
    const answer = await unwrap(
      api.GET('/v1/tickets', { params: { query: { ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } }),
    );
    return { data: answer.data, nextCursor: answer.nextCursor };
  });
  return (
    <section aria-label="Tickets" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">Tickets</h2>
      <ErrorNotice error={tickets.error} />
      {tickets.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {!tickets.isPending && !tickets.error && tickets.items.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</p>
      ) : null}
      {tickets.items.length > 0 ? (
        <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {tickets.items.map((ticket) => (
            <li key={ticket.id}>
              <Link
                to="/tickets/$ticketId"
                params={{ ticketId: ticket.id }}
                className="flex flex-wrap items-baseline gap-x-2 px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
              >
                <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{ticket.ticketIdentifier}</span>
                <span className="min-w-0 flex-1 truncate">{ticket.title}</span>
                <span className="text-xs text-zinc-500 dark:text-zinc-400">{ticket.status}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={tickets.hasMore} loading={tickets.loadingMore} onLoadMore={() => void tickets.loadMore()} />
    </section>
  );
}
