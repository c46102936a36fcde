import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  BusinessHoursStatusQuerySchema,
  BusinessHoursStatusSchema,
  TeamConfigurationSchema,
  TeamParamsSchema,
  UpdateTeamConfigurationSchema,
} from './team-configuration.schemas.js';
import { getBusinessHoursStatus, getTeamConfiguration, updateTeamConfiguration } from './team-configuration.service.js';

export function teamConfigurationRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/teams/:teamId/configurations',
      {
        schema: {
          operationId: 'platform.teamConfigurations.get',
          tags: ['teams'],
          summary: "A team's configuration: time zone, business hours, holidays and routing switches",
          params: TeamParamsSchema,
          response: { 200: PlatformEnvelopeSchema(TeamConfigurationSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await getTeamConfiguration(deps.db, request.principal, request.params.teamId)),
    );

    app.patch(
      '/teams/:teamId/configurations',
      {
        schema: {
          operationId: 'platform.teamConfigurations.update',
          tags: ['teams'],
          summary: "Changes the fields sent of a team's configuration",
          description:
            'Fields left out keep their value; `dailyConfig` replaces only the days it names. Slots are `HH:MM`, ' +
            'start before end (`24:00` ends at midnight), and must not overlap within a day.',
          params: TeamParamsSchema,
          body: UpdateTeamConfigurationSchema,
          response: { 200: PlatformEnvelopeSchema(TeamConfigurationSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await updateTeamConfiguration(deps, request.principal, request.params.teamId, request.body)),
    );

    app.get(
      '/teams/:teamId/business-hours/status',
      {
        schema: {
          operationId: 'platform.teams.businessHoursStatus',
          tags: ['teams'],
          summary: 'Whether the team is open at a moment (now by default), and when it next opens and closes',
          description: 'Computed in the team time zone; holidays are whole local days closed. Null when not within a year.',
          params: TeamParamsSchema,
          querystring: BusinessHoursStatusQuerySchema,
          response: { 200: PlatformEnvelopeSchema(BusinessHoursStatusSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(
          deps.clock,
          await getBusinessHoursStatus(deps, request.principal, request.params.teamId, request.query.at),
        ),
    );
  };
}
