import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { UpdateUserBusinessHoursSchema, UserBusinessHoursSchema } from '../business-hours/hours.schemas.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { getUserBusinessHours, updateUserBusinessHours } from './user-business-hours.service.js';

/** The caller's own working hours (registered before the `/users/:userId` routes). */
export function userBusinessHoursRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/users/business-hours',
      {
        schema: {
          operationId: 'platform.userBusinessHours.get',
          tags: ['users'],
          summary: "The caller's own business hours",
          description: 'Until the caller first saves hours, the defaults are shown with null createdAt and updatedAt.',
          response: { 200: PlatformEnvelopeSchema(UserBusinessHoursSchema), ...platformErrorResponses([]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await getUserBusinessHours(deps.db, request.principal)),
    );

    app.patch(
      '/users/business-hours',
      {
        schema: {
          operationId: 'platform.userBusinessHours.update',
          tags: ['users'],
          summary: "Changes the fields sent of the caller's own business hours",
          description:
            'Fields left out keep their value (the defaults on first use); `dailyConfig` replaces only the days it ' +
            "names. `timezone` also becomes the user's own time zone; null falls back to the team's.",
          body: UpdateUserBusinessHoursSchema,
          response: { 200: PlatformEnvelopeSchema(UserBusinessHoursSchema), ...platformErrorResponses([400]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await updateUserBusinessHours(deps, request.principal, request.body)),
    );
  };
}
