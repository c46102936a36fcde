import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf, QueryOf } from '../../api/types';

export type SlackInstallation = NonNullable<DataOf<'/v1/integrations/slack/', 'get'>>;
export type SlackChannel = DataOf<'/v1/integrations/slack/channels', 'get'>[number];
export type SlackChannelUpdate = BodyOf<'/v1/integrations/slack/channels/{channelId}', 'patch'>;
export type SlackDecision = DataOf<'/v1/integrations/slack/decisions', 'get'>[number];
export type SlackDecisionFilters = QueryOf<'/v1/integrations/slack/decisions', 'get'>;
export type SlackReportRow = DataOf<'/v1/integrations/slack/detection-report', 'get'>[number];
export type TeamOption = DataOf<'/v1/teams', 'get'>[number];

/** Every Slack query starts with this key: installing, saving a channel or marking a decision refreshes them. */
export const SLACK_KEY = ['slack'] as const;

export const slackInstallationQuery = queryOptions({
  queryKey: [...SLACK_KEY, 'installation'],
  queryFn: async () => (await unwrap(api.GET('/v1/integrations/slack/'))).data,
});

/**
 * Whether this server has a Slack app set up: the install route answers 409 when it has not, and
 * redirects to Slack when it has (the redirect is not followed, only seen).
 */
export const slackConfiguredQuery = queryOptions({
  queryKey: [...SLACK_KEY, 'configured'],
  queryFn: async () => {
    const response = await fetch('/v1/integrations/slack/install', { redirect: 'manual', credentials: 'same-origin' });
    return response.status !== 409;
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export const slackChannelsQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: [...SLACK_KEY, 'channels'],
    queryFn: async () => (await unwrap(api.GET('/v1/integrations/slack/channels'))).data,
    enabled,
    retry: false,
  });

export const slackTeamsQuery = queryOptions({
  queryKey: ['teams', 'options'],
  queryFn: async (): Promise<TeamOption[]> => (await unwrap(api.GET('/v1/teams', { params: { query: { limit: 100 } } }))).data,
  staleTime: 60_000,
});

export const fetchSlackDecisionPage = (filters: SlackDecisionFilters) => (cursor: string | undefined) =>
  unwrap(
    api.GET('/v1/integrations/slack/decisions', { params: { query: { ...filters, limit: 50, ...(cursor ? { cursor } : {}) } } }),
  );

export const slackReportQuery = queryOptions({
  queryKey: [...SLACK_KEY, 'report'],
  queryFn: async () => (await unwrap(api.GET('/v1/integrations/slack/detection-report'))).data,
});

/** Saves one channel's settings; the list shows the answer. */
export function useSaveSlackChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SlackChannelUpdate) =>
      (await unwrap(api.PATCH('/v1/integrations/slack/channels/{channelId}', { params: { path: { channelId } }, body }))).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(slackChannelsQuery(true).queryKey, (channels: SlackChannel[] | undefined) =>
        channels?.map((channel) => (channel.channelId === saved.channelId ? saved : channel)),
      );
    },
  });
}

/** Marks a decision right or wrong (or clears it): the decisions and the report read again. */
export function useMarkSlackDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, mark }: { id: string; mark: 'right' | 'wrong' | null }) =>
      (await unwrap(api.PATCH('/v1/integrations/slack/decisions/{id}', { params: { path: { id } }, body: { mark } }))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SLACK_KEY }),
  });
}
