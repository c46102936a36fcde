import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { Nullable } from '../../http/shared-schemas.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { TeamParamsSchema } from '../team-configurations/team-configuration.schemas.js';
import { TicketIdParamsSchema } from '../tickets/ticket.schemas.js';
import { PutSatisfactionSettingsSchema, SatisfactionSettingsSchema, SatisfactionSurveySchema } from './satisfaction.schemas.js';
import { getTicketSatisfaction, requestSurvey } from './satisfaction.service.js';
import { getSatisfactionSettings, putSatisfactionSettings } from './satisfaction-settings.service.js';

/** A team's survey settings, and a ticket's survey: read by members, asked for by hand by agents. */
export function satisfactionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.get(
      '/teams/:teamId/satisfaction-settings',
      {
        schema: {
          operationId: 'platform.satisfaction.getSettings',
          tags: ['satisfaction'],
          summary: "A team's satisfaction survey settings (off, with the defaults, until set)",
          params: TeamParamsSchema,
          response: { 200: PlatformEnvelopeSchema(SatisfactionSettingsSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getSatisfactionSettings(deps.db, request.principal, request.params.teamId)),
    );

    app.put(
      '/teams/:teamId/satisfaction-settings',
      {
        schema: {
          operationId: 'platform.satisfaction.putSettings',
          tags: ['satisfaction'],
          summary: "Replaces a team's satisfaction survey settings; admins and the team's managers",
          description:
            'When enabled, closing a ticket of the team queues a survey to its requestor, emailed delayMinutes later, ' +
            'for a samplingShare of closes (decided at the close), unless the ticket has one of skipWhen.tagIds or ' +
            "skipWhen.priorityIds (ids of the team's tags and priorities; others are a 400), and unless the requestor " +
            'was sent one within cooldownDays (checked when sending).',
          params: TeamParamsSchema,
          body: PutSatisfactionSettingsSchema,
          response: { 200: PlatformEnvelopeSchema(SatisfactionSettingsSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await putSatisfactionSettings(deps, request.principal, request.params.teamId, request.body)),
    );

    app.get(
      '/tickets/:id/satisfaction',
      {
        schema: {
          operationId: 'platform.satisfaction.getTicketSurvey',
          tags: ['satisfaction'],
          summary: "The ticket's latest satisfaction survey, its state and answer; null when never surveyed",
          params: TicketIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(Nullable(SatisfactionSurveySchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getTicketSatisfaction(deps.db, request.principal, request.params.id)),
    );

    app.post(
      '/tickets/:id/satisfaction/request',
      {
        schema: {
          operationId: 'platform.satisfaction.requestSurvey',
          tags: ['satisfaction'],
          summary: 'Emails a satisfaction survey to the requestor now, whatever the team settings',
          description:
            "409 when the ticket's requestor has no email address, or a survey of this close is pending, sent or rated.",
          params: TicketIdParamsSchema,
          response: { 201: PlatformEnvelopeSchema(SatisfactionSurveySchema), ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await requestSurvey(deps, request.principal, request.params.id))),
    );
  };
}
