import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { platformErrorResponses } from '../../platform/platform.envelope.js';
import { receiveSlackInteraction } from './slack-interaction-receipt.service.js';
import { requireSlackSignature } from './slack-signed-request.js';

const FORM = 'application/x-www-form-urlencoded';
/** A block_actions payload carries the message it was clicked on, blocks and all: well under this. */
const INTERACTION_BODY_LIMIT_BYTES = 1024 * 1024;

const SlackInteractionFormSchema = Type.Object(
  { payload: Type.String({ description: 'The interaction as JSON (block_actions: team, user, channel, trigger_id, actions)' }) },
  { additionalProperties: true, description: "Slack's interactivity request, signed with the app's signing secret" },
);

/**
 * The body as Slack signed it, once its signature holds: Slack's form, refused in the platform's
 * shape when it is another type (415), when the server has no Slack app (409), or when the
 * signature is missing, stale or wrong (401, the reason logged).
 */
function signedSlackForm(deps: AppDeps, request: FastifyRequest): string {
  if ((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== FORM || typeof request.body !== 'string') {
    throw new AppError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Slack sends interactions as ${FORM}` });
  }
  requireSlackSignature(deps, request, request.body, 'interaction');
  return request.body;
}

/**
 * Slack's interactivity URL (the triage posts' buttons), under `/v1/integrations/slack`: a signed
 * form, kept as a job and answered at once with an empty 200, as Slack wants within 3 seconds.
 */
export function slackInteractionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Slack signs the form's bytes: kept as text, and read only once the signature holds.
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: INTERACTION_BODY_LIMIT_BYTES }, (_request, body, done) =>
      done(null, body),
    );

    app.post(
      '/interactions',
      {
        config: { public: true },
        bodyLimit: INTERACTION_BODY_LIMIT_BYTES,
        schema: {
          operationId: 'platform.slack.interactions',
          tags: ['slack'],
          summary: "Slack's interactivity URL: signed requests only (X-Slack-Signature, 5 minutes); each click is kept once",
          description:
            `Takes Slack's ${FORM} form with its \`payload\` field. Answers an empty 200 at once; the click ("Assign to me", ` +
            '"Close" on a triage post) is acted on afterwards, as the Slack user matched by email to an agent. A replay of a ' +
            'kept trigger_id, or a workspace no organization installed, is answered 200 and ignored. 401 for a missing, stale or bad signature; 415 for another body type.',
          consumes: [FORM],
          body: SlackInteractionFormSchema,
          response: {
            200: { type: 'null', description: 'Empty: Slack needs nothing back' } as const,
            ...platformErrorResponses([400, 401, 409, 415]),
          },
        },
        // The body is the raw form the signature covers; it is parsed after the check.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
        const receipt = await receiveSlackInteraction(deps, signedSlackForm(deps, request));
        request.log.info({ receipt }, 'Slack interaction received');
        return reply.code(200).send();
      },
    );
  };
}
