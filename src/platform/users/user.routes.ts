import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { MeSchema } from './user.schemas.js';
import { getMe } from './user.service.js';

export function userRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/users/me',
      {
        schema: {
          operationId: 'platform.users.me',
          tags: ['users'],
          summary: "The caller's user and organization",
          response: { 200: PlatformEnvelopeSchema(MeSchema), ...platformErrorResponses([]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await getMe(deps.db, request.principal)),
    );
  };
}
