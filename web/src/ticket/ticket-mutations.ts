import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Ticket, TicketUpdate } from '../api/types';
import { ticketQuery } from './ticket-queries';

/** One change to the ticket: what the page shows at once, and the request that makes it. */
export interface TicketChange {
  /** The fields as they will read once the API agrees, shown before it answers. */
  optimistic: Partial<Ticket>;
  request: () => Promise<Ticket>;
}

export const patchTicket = (id: string, body: TicketUpdate) => async () =>
  (await unwrap(api.PATCH('/v1/tickets/{id}', { params: { path: { id } }, body }))).data;

export const addTicketTags = (id: string, tagIds: string[]) => async () =>
  (await unwrap(api.POST('/v1/tickets/{id}/tags', { params: { path: { id } }, body: { tagIds } }))).data;

export const removeTicketTags = (id: string, tagIds: string[]) => async () =>
  (await unwrap(api.DELETE('/v1/tickets/{id}/tags', { params: { path: { id }, query: { tagIds } } }))).data;

/** A ticket changes team through the bulk endpoint (the ticket update takes no team): it moves like a routed one. */
export const moveTicketToTeam = (id: string, teamId: string) => async () => {
  const answer = await unwrap(api.POST('/v1/tickets/bulk', { body: { ticketIds: [id], change: { teamId } } }));
  const [result] = answer.data.results;
  if (!result) {
    throw new Error('The move answered no ticket');
  }
  return result.ticket;
};

/**
 * Changes to the ticket, optimistic: the header shows the change at once; the API's answer
 * replaces it, and a refusal puts back what was there and leaves the API's message in `error`.
 */
export function useTicketChange(id: string) {
  const queryClient = useQueryClient();
  const key = ticketQuery(id).queryKey;
  return useMutation({
    mutationFn: (change: TicketChange) => change.request(),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData(key);
      if (previous) {
        queryClient.setQueryData(key, { ...previous, ...change.optimistic });
      }
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) {
        queryClient.setQueryData(key, context.previous);
      }
    },
    onSuccess: (ticket) => {
      queryClient.setQueryData(key, ticket);
      void queryClient.invalidateQueries({ queryKey: ['tickets', id, 'activities'] });
    },
  });
}
