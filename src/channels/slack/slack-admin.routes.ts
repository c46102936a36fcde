import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../../platform/platform.envelope.js';
import {
  ListSlackDecisionsQuerySchema,
  MarkSlackDecisionSchema,
  SlackChannelParamsSchema,
  SlackChannelSchema,
  SlackDecisionParamsSchema,
  SlackDecisionSchema,
  SlackDetectionReportQuerySchema,
  SlackDetectionReportRowSchema,
  UpdateSlackChannelSchema,
} from './slack-admin.schemas.js';
import { listSlackChannels, updateSlackChannel } from './slack-channels.service.js';
import { listSlackDecisions, markSlackDecisionAs, slackDetectionReport } from './slack-decisions.service.js';

const tags = ['slack'];

/**
 * What an admin sets up and checks of Slack, under `/v1/integrations/slack`: the channels the bot
 * is in and what each is for, the request detection decisions and their marks, and the accuracy
 * report. Plain JSON routes, apart from the signed ones of `slack.routes.ts`, which read raw bodies.
 */
export function slackAdminRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.get(
      '/channels',
      {
        schema: {
          operationId: 'platform.slack.channels.list',
          tags,
          summary: 'The channels the bot is in, read from Slack, each with what it is for here; organization admins only',
          description:
            'By name; then channels set up here that the bot is no longer in. A channel never set up is ignored, with the ' +
            "defaults. A Slack Connect channel without an account suggests the account whose domain is the partner workspace's " +
            'email domain (or Slack domain). 409 when Slack is not installed or its token was revoked; 502 naming the error ' +
            'when Slack refuses a call.',
          response: {
            200: PlatformEnvelopeSchema(Type.Array(SlackChannelSchema)),
            ...platformErrorResponses([403, 409, 502]),
          },
        },
      },
      async (request) => ok(await listSlackChannels(deps, request.principal)),
    );

    app.patch(
      '/channels/:channelId',
      {
        schema: {
          operationId: 'platform.slack.channels.update',
          tags,
          summary:
            'Set what a channel the bot is in is for: its kind, account, team and request detection; organization admins only',
          description:
            "404 when the account or team is not the organization's, or the bot is not in the channel (Slack is asked). Saving " +
            'a disconnected channel that Slack answers again connects it again. 409 when the installation was revoked.',
          params: SlackChannelParamsSchema,
          body: UpdateSlackChannelSchema,
          response: {
            200: PlatformEnvelopeSchema(SlackChannelSchema),
            ...platformErrorResponses([400, 403, 404, 409, 502]),
          },
        },
      },
      async (request) => ok(await updateSlackChannel(deps, request.principal, request.params.channelId, request.body)),
    );

    app.get(
      '/decisions',
      {
        schema: {
          operationId: 'platform.slack.decisions.list',
          tags,
          summary: 'Request detection decisions, newest first, with their reasons and marks; organization admins only',
          description: 'Newest first, then by id, `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
          querystring: ListSlackDecisionsQuerySchema,
          response: {
            200: PlatformListEnvelopeSchema(Type.Array(SlackDecisionSchema)),
            ...platformErrorResponses([400, 403]),
          },
        },
      },
      async (request) => {
        const page = await listSlackDecisions(deps, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.patch(
      '/decisions/:id',
      {
        schema: {
          operationId: 'platform.slack.decisions.mark',
          tags,
          summary: 'Mark a detection decision right or wrong (null clears it); organization admins only',
          description: 'Who marked it and when are kept with the mark; the detection report counts the marks.',
          params: SlackDecisionParamsSchema,
          body: MarkSlackDecisionSchema,
          response: { 200: PlatformEnvelopeSchema(SlackDecisionSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await markSlackDecisionAs(deps, request.principal, request.params.id, request.body.mark)),
    );

    app.get(
      '/detection-report',
      {
        schema: {
          operationId: 'platform.slack.detectionReport',
          tags,
          summary:
            'Precision and recall of request detection per channel and mode, from the marked decisions; organization admins only',
          description:
            'truePositives: requests marked right; falsePositives: requests marked wrong; trueNegatives: chatter marked ' +
            'right; falseNegatives: chatter marked wrong (a missed request). precision = TP / (TP + FP), recall = TP / ' +
            '(TP + FN), null when nothing counts for them. `from` (inclusive) and `to` (exclusive) bound when decisions were made.',
          querystring: SlackDetectionReportQuerySchema,
          response: {
            200: PlatformEnvelopeSchema(Type.Array(SlackDetectionReportRowSchema)),
            ...platformErrorResponses([400, 403]),
          },
        },
      },
      async (request) => ok(await slackDetectionReport(deps, request.principal, request.query)),
    );
  };
}
