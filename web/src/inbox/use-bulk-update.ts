import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { BulkTicketChange, PlatformEvent, Ticket } from '../api/types';

/** The bulk endpoint's limit per request; a larger selection goes in several. */
const MAX_PER_REQUEST = 100;

export interface BulkUpdate {
  ticketIds: string[];
  change: BulkTicketChange;
}

/**
 * One change to many tickets through `POST /v1/tickets/bulk`. The answer's tickets are merged into
 * the list at once (`onTickets`), without waiting for their live events, and the view counts reload.
 */
export function useBulkUpdate(onTickets: (events: PlatformEvent[]) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ticketIds, change }: BulkUpdate): Promise<Ticket[]> => {
      const tickets: Ticket[] = [];
      for (let start = 0; start < ticketIds.length; start += MAX_PER_REQUEST) {
        const body = await unwrap(
          api.POST('/v1/tickets/bulk', { body: { ticketIds: ticketIds.slice(start, start + MAX_PER_REQUEST), change } }),
        );
        tickets.push(...body.data.results.map((result) => result.ticket));
      }
      return tickets;
    },
    onSuccess: (tickets) => {
      onTickets(tickets.map((ticket) => ({ type: 'ticket.updated', data: ticket }) as PlatformEvent));
      void queryClient.invalidateQueries({ queryKey: ['views'] });
    },
  });
}
