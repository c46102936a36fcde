import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { readAllPages } from '../api/read-all-pages';
import type { Macro, OrganizationUser, Team, TicketComment } from '../api/types';
import { type ChatVisitorState, mergeVisitorState, visitorStateOf } from './chat-visitor';

/**
 * The queries of the ticket page, keyed by resource: `['tickets', id, …]` for what belongs to the
 * ticket, the organization's lists (users, teams, macros) under their own names so every page
 * shares them. `id` is what the URL names (the ULID or the identifier): the API takes either.
 */

const UNSETTLED_DELIVERY = new Set(['pending', 'sending', 'failed']);

export const ticketQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/{id}', { params: { path: { id } } }))).data,
  });

export const commentsQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id, 'comments'],
    queryFn: (): Promise<TicketComment[]> =>
      readAllPages((cursor) =>
        unwrap(
          api.GET('/v1/tickets/{id}/comments', {
            params: { path: { id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
          }),
        ),
      ),
  });

export const emailsQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id, 'emails'],
    queryFn: () =>
      readAllPages((cursor) =>
        unwrap(
          api.GET('/v1/tickets/{id}/emails', { params: { path: { id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
        ),
      ),
    // Email events are not streamed: while a delivery is under way, its state is asked for again.
    refetchInterval: (query) =>
      query.state.data?.some((email) => email.delivery && UNSETTLED_DELIVERY.has(email.delivery.status)) ? 3_000 : false,
  });

/** The ticket's latest satisfaction survey, or null; `satisfaction.rated` on the stream refreshes it. */
export const satisfactionQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id, 'satisfaction'],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/{id}/satisfaction', { params: { path: { id } } }))).data,
  });

export const activitiesQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id, 'activities'],
    queryFn: () =>
      readAllPages((cursor) =>
        unwrap(
          api.GET('/v1/tickets/{id}/activities', {
            params: { path: { id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
          }),
        ),
      ),
  });

export const statusesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['ticket-statuses', teamId],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/statuses', { params: { query: { teamId } } }))).data,
    staleTime: 5 * 60_000,
  });

export const prioritiesQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['ticket-priorities', teamId],
    queryFn: async () => (await unwrap(api.GET('/v1/tickets/priorities', { params: { query: { teamId } } }))).data,
    staleTime: 5 * 60_000,
  });

export const teamTagsQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['teams', teamId, 'tags'],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/teams/{teamUuid}/tags', { params: { path: { teamUuid: teamId } } }))).data.items.filter(
        (tag) => tag.type === 'ticket',
      ),
    staleTime: 60_000,
  });

export const usersQuery = queryOptions({
  queryKey: ['users'],
  queryFn: async (): Promise<OrganizationUser[]> =>
    (
      await readAllPages((cursor) =>
        unwrap(api.GET('/v1/users/list', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } })),
      )
    ).filter((user) => !user.disabled),
  staleTime: 60_000,
});

export const teamsQuery = queryOptions({
  queryKey: ['teams'],
  queryFn: (): Promise<Team[]> =>
    readAllPages((cursor) => unwrap(api.GET('/v1/teams', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
  staleTime: 60_000,
});

/** Active ticket fields the caller may see (organization-wide and their teams'); the page keeps those of the ticket's team. */
export const ticketFieldsQuery = queryOptions({
  queryKey: ['custom-fields', 'ticket'],
  queryFn: async () =>
    (await unwrap(api.GET('/v1/custom-field', { params: { query: { source: 'ticket', limit: 100 } } }))).data.filter(
      (field) => field.isActive,
    ),
  staleTime: 60_000,
});

/** The macros the caller may use; the composer offers those of the ticket's team and the organization's. */
export const macrosQuery = queryOptions({
  queryKey: ['macros'],
  queryFn: (): Promise<Macro[]> =>
    readAllPages((cursor) => unwrap(api.GET('/v1/macros', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
  staleTime: 60_000,
});

export const attachmentQuery = (attachmentId: string) =>
  queryOptions({
    queryKey: ['attachments', attachmentId],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/attachments/{id}/metadata', { params: { path: { id: attachmentId } } }))).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const contactQuery = (contactId: string) =>
  queryOptions({
    queryKey: ['contacts', contactId],
    queryFn: async () => unwrap(api.GET('/v1/accounts/contacts/{contactId}', { params: { path: { contactId } } })),
  });

export const accountQuery = (accountId: string) =>
  queryOptions({
    queryKey: ['accounts', accountId],
    queryFn: async () => unwrap(api.GET('/v1/accounts/{id}', { params: { path: { id: accountId } } })),
  });

export const requestorTicketsQuery = (requestorEmail: string) =>
  queryOptions({
    queryKey: ['tickets', 'by-requestor', requestorEmail.toLowerCase()],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/tickets', { params: { query: { requestorEmail, limit: 10, sort: '-updatedAt' } } }))).data,
  });

/** How often a chat visitor's presence is asked again: the server marks them seen on every heartbeat but announces only arrivals and departures. */
const CHAT_VISITOR_REFRESH_MS = 20_000;

/** A chat ticket's visitor, in this browser's clock (see `chat-visitor.ts`); live events patch it in between. */
export const chatVisitorQuery = (id: string) =>
  queryOptions({
    queryKey: ['tickets', id, 'chat-visitor'],
    queryFn: async ({ client, queryKey }): Promise<ChatVisitorState> => {
      const answer = await unwrap(api.GET('/v1/tickets/{id}/chat-visitor', { params: { path: { id } } }));
      // A live report newer than the answer (they can cross) is kept: see `mergeVisitorState`.
      return mergeVisitorState(
        client.getQueryData<ChatVisitorState>(queryKey),
        visitorStateOf(answer.data, answer.timestamp, Date.now()),
      );
    },
    refetchInterval: CHAT_VISITOR_REFRESH_MS,
  });
