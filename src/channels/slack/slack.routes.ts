import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { Nullable } from '../../http/shared-schemas.js';
import { AppError } from '../../lib/errors.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../../platform/platform.envelope.js';
import {
  SlackCallbackQuerySchema,
  SlackEventAnswerSchema,
  SlackEventEnvelopeSchema,
  SlackInstallationSchema,
} from './slack.schemas.js';
import { receiveSlackEvent, type SlackEnvelope } from './slack-events.service.js';
import { completeSlackInstall, describeSlackInstallation, type SlackDeps, slackInstallUrl } from './slack-install.service.js';
import { slackInteractionRoutes } from './slack-interactions.routes.js';
import { requireSlackSignature } from './slack-signed-request.js';

const tags = ['slack'];
/** Slack's event envelopes are small; a message event with blocks stays well under this. */
const EVENT_BODY_LIMIT_BYTES = 1024 * 1024;

/** The raw body of Slack's requests, which its signature covers byte for byte. */
function rawBodyOf(request: FastifyRequest): string {
  return typeof request.body === 'string' ? request.body : '';
}

/**
 * Slack as a channel, under the platform's `/v1/integrations/slack`: the install by OAuth v2 (an
 * admin's redirect to Slack, and Slack's callback), the installation's state, and the Events API
 * URL Slack signs its requests to.
 */
export function slackRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const service: SlackDeps = deps;
  return async (app) => {
    // Slack signs the body's bytes: these routes read JSON as text and parse it once it is verified.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: EVENT_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.get(
      '/install',
      {
        schema: {
          operationId: 'platform.slack.install',
          tags,
          summary: "Send an admin's browser to Slack to install the app in their workspace (OAuth v2); organization admins only",
          description:
            '409 when the server has no Slack app set up (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET).',
          response: { 302: Type.Null({ description: "To Slack's authorize page" }), ...platformErrorResponses([403, 409]) },
        },
      },
      async (request, reply) => reply.redirect(slackInstallUrl(service, request.principal), 302),
    );

    app.get(
      '/oauth/callback',
      {
        config: { public: true },
        schema: {
          operationId: 'platform.slack.oauthCallback',
          tags,
          summary: 'Where Slack sends the admin back: exchanges the code for the bot token, then opens the console',
          querystring: SlackCallbackQuerySchema,
          response: {
            302: Type.Null({
              description: '/app/settings/channels?slack=installed, or ?slack=error&reason=… (invalid_state, access_denied, …)',
            }),
            ...platformErrorResponses([400]),
          },
        },
      },
      async (request, reply) => reply.redirect(await completeSlackInstall(service, request.query), 302),
    );

    app.get(
      '/',
      {
        schema: {
          operationId: 'platform.slack.installation',
          tags,
          summary: "The organization's Slack installation (never its token), or null; organization admins only",
          response: { 200: PlatformEnvelopeSchema(Nullable(SlackInstallationSchema)), ...platformErrorResponses([403]) },
        },
      },
      async (request) => ok(await describeSlackInstallation(service, request.principal)),
    );

    app.post(
      '/events',
      {
        config: { public: true },
        bodyLimit: EVENT_BODY_LIMIT_BYTES,
        schema: {
          operationId: 'platform.slack.events',
          tags,
          summary: "Slack's Events API URL: signed requests only (X-Slack-Signature, 5 minutes); each event is kept once",
          description:
            'Answers at once; the event is acted on afterwards. A retry (X-Slack-Retry-Num) or replay of a kept event_id is ' +
            'answered 200 and ignored; so is an event of a workspace no organization installed. 401 for a missing, stale or bad signature.',
          body: SlackEventEnvelopeSchema,
          response: { 200: SlackEventAnswerSchema, ...platformErrorResponses([400, 401, 409]) },
        },
        // The body is the raw text the signature covers; it is parsed after the check.
        validatorCompiler: () => () => true,
      },
      async (request) => {
        const rawBody = rawBodyOf(request);
        requireSlackSignature(deps, request, rawBody, 'request');
        let envelope: unknown;
        try {
          envelope = JSON.parse(rawBody);
        } catch (error) {
          throw new AppError({ code: 'MALFORMED_BODY', message: 'The body is not JSON', cause: error });
        }
        if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
          throw new AppError({ code: 'MALFORMED_BODY', message: 'The body is not a JSON object' });
        }
        const receipt = await receiveSlackEvent(service, envelope as SlackEnvelope, rawBody);
        return receipt.kind === 'challenge' ? { challenge: receipt.challenge } : { ok: true };
      },
    );

    await app.register(slackInteractionRoutes(deps));
  };
}
