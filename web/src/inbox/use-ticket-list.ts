import { hashKey, type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { api, unwrap } from '../api/client';
import type { PlatformEvent, Ticket } from '../api/types';
import { useMe } from '../auth/session';
import { useLiveEvents } from '../live/events';
import { mergeTicketEvent, type TicketPage, ticketOfSlaEvent } from './live-merge';
import { type TicketQuery, ticketQueryKey } from './ticket-query';

/** Rows per request: the API's maximum, so scrolling through thousands takes few round trips. */
const PAGE_SIZE = 100;
/** A burst of events the browser cannot place reloads the first page once, not once per event. */
const REFETCH_THROTTLE_MS = 1_000;

export type TicketListData = InfiniteData<TicketPage, string | undefined>;

/**
 * The open list, page by page (`cursor`/`nextCursor`), kept current by the live stream: events are
 * merged into the loaded pages (`live-merge.ts`), an SLA warning's or breach's ticket read anew
 * first (its Due column); what cannot be placed reloads the first page.
 */
export function useTicketList(query: TicketQuery | null) {
  const queryClient = useQueryClient();
  const me = useMe();
  const key = ticketQueryKey(query);
  const list = useInfiniteQuery({
    queryKey: key,
    enabled: query !== null,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }): Promise<TicketPage> => {
      const body = await unwrap(
        api.GET('/v1/tickets', {
          params: { query: { ...query, cursor: pageParam, limit: PAGE_SIZE } },
          signal,
        }),
      );
      return { items: body.data, nextCursor: body.nextCursor };
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadFirstPage = useCallback(() => {
    if (refetchTimer.current) {
      return;
    }
    refetchTimer.current = setTimeout(() => {
      refetchTimer.current = null;
      // Only the first page again: the later ones load as the list scrolls.
      queryClient.setQueryData<TicketListData>(key, (data) =>
        data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
      );
      void queryClient.refetchQueries({ queryKey: key, exact: true });
    }, REFETCH_THROTTLE_MS);
  }, [queryClient, key]);

  const applyTickets = useCallback(
    (events: PlatformEvent[]) => {
      if (query === null) {
        return;
      }
      let refetch = false;
      queryClient.setQueryData<TicketListData>(key, (data) => {
        if (!data) {
          return data;
        }
        let pages = data.pages;
        for (const event of events) {
          const merged = mergeTicketEvent(pages, event, query, me.user.id);
          pages = merged.pages;
          refetch ||= merged.refetch;
        }
        return pages === data.pages ? data : { ...data, pages };
      });
      if (refetch) {
        reloadFirstPage();
      }
    },
    [queryClient, key, query, me.user.id, reloadFirstPage],
  );

  /** An SLA warning or breach carries the ticket's id only: read the ticket, and merge it as a change. */
  const refreshSlaTicket = useCallback(
    async (event: PlatformEvent) => {
      const pages = queryClient.getQueryData<TicketListData>(key)?.pages ?? [];
      const ticketId = query && ticketOfSlaEvent(pages, event, query);
      if (!ticketId) {
        return;
      }
      const { data } = await api.GET('/v1/tickets/{id}', { params: { path: { id: ticketId } } });
      // Gone, or no longer visible: the next ticket event or refetch settles the row.
      if (data) {
        applyTickets([{ ...event, type: 'ticket.updated', data: data.data } as PlatformEvent]);
      }
    },
    [queryClient, key, query, applyTickets],
  );

  useLiveEvents(
    (event) => {
      const sla = event.type.startsWith('sla.');
      if (!event.type.startsWith('ticket.') && !sla) {
        return;
      }
      if (sla) {
        void refreshSlaTicket(event);
      } else {
        applyTickets([event]);
      }
      // Lists of other views and filters are reloaded when opened again.
      void queryClient.invalidateQueries({
        queryKey: ['tickets', 'list'],
        refetchType: 'none',
        predicate: (cached) => cached.queryHash !== hashKey(key),
      });
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );

  const tickets = useMemo(() => uniqueTickets(list.data?.pages ?? []), [list.data]);
  return { list, tickets, applyTickets };
}

/** The loaded rows in order; a ticket inserted live and then fetched with a later page shows once. */
function uniqueTickets(pages: readonly TicketPage[]): Ticket[] {
  const seen = new Set<string>();
  const tickets: Ticket[] = [];
  for (const page of pages) {
    for (const ticket of page.items) {
      if (!seen.has(ticket.id)) {
        seen.add(ticket.id);
        tickets.push(ticket);
      }
    }
  }
  return tickets;
}
