import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';

export type Mailbox = DataOf<'/v1/mailboxes/{id}', 'get'>;
export type MailboxCreate = BodyOf<'/v1/mailboxes', 'post'>;
export type MailboxUpdate = BodyOf<'/v1/mailboxes/{id}', 'patch'>;
export type MailboxDnsSetup = DataOf<'/v1/mailboxes/{id}/dns', 'get'>;
export type MailboxTestEmail = DataOf<'/v1/mailboxes/{id}/test', 'post'>;
export type TeamOption = DataOf<'/v1/teams', 'get'>[number];

/** Every mailbox query starts with this key, so a change refreshes the list and the pages at once. */
export const MAILBOXES_KEY = ['mailboxes'] as const;

export const fetchMailboxPage = (cursor: string | undefined) =>
  unwrap(api.GET('/v1/mailboxes', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));

export const mailboxQuery = (id: string) =>
  queryOptions({
    queryKey: [...MAILBOXES_KEY, id],
    queryFn: async () => (await unwrap(api.GET('/v1/mailboxes/{id}', { params: { path: { id } } }))).data,
  });

/** Keyed with the verification state, so a verified address stops asking for its verification record. */
export const mailboxDnsQuery = (id: string, verified: boolean) =>
  queryOptions({
    queryKey: [...MAILBOXES_KEY, id, 'dns', verified ? 'verified' : 'unverified'],
    queryFn: async () => (await unwrap(api.GET('/v1/mailboxes/{id}/dns', { params: { path: { id } } }))).data,
  });

/** The teams a mailbox may bring tickets to: the first hundred by name is plenty for a picker. */
export const mailboxTeamsQuery = queryOptions({
  queryKey: ['teams', 'options'],
  queryFn: async (): Promise<TeamOption[]> => (await unwrap(api.GET('/v1/teams', { params: { query: { limit: 100 } } }))).data,
  staleTime: 60_000,
});

export const createMailbox = async (body: MailboxCreate) => (await unwrap(api.POST('/v1/mailboxes', { body }))).data;

export const updateMailbox = async (id: string, body: MailboxUpdate) =>
  (await unwrap(api.PATCH('/v1/mailboxes/{id}', { params: { path: { id } }, body }))).data;

/** A mailbox action that answers the mailbox: the page shows the answer, and lists and set-up refresh. */
export function useMailboxAction(id: string, action: () => Promise<Mailbox>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: (mailbox) => {
      queryClient.setQueryData(mailboxQuery(id).queryKey, mailbox);
      void queryClient.invalidateQueries({ queryKey: MAILBOXES_KEY });
    },
  });
}

export const resendVerificationLink = (id: string) => async () =>
  (await unwrap(api.POST('/v1/mailboxes/{id}/verification/link', { params: { path: { id } } }))).data;

export const checkVerificationRecord = (id: string) => async () =>
  (await unwrap(api.POST('/v1/mailboxes/{id}/verification/dns', { params: { path: { id } } }))).data;

export const deleteMailbox = (id: string) => async () =>
  (await unwrap(api.DELETE('/v1/mailboxes/{id}', { params: { path: { id } } }))).data;

export const sendTestEmail = async (id: string, to: string | undefined) =>
  (await unwrap(api.POST('/v1/mailboxes/{id}/test', { params: { path: { id } }, body: to ? { to } : {} }))).data;
