import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import { AgentIdParamsSchema } from '../agents/agent.schemas.js';
import { KnowledgeGapSchema, ListKnowledgeGapsQuerySchema } from './knowledge-gap.schemas.js';
import { listKnowledgeGaps } from './knowledge-gap.service.js';

const tags = ['agent runs'];

export function knowledgeGapRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/agents/:agent_id/knowledge-gaps',
      {
        schema: {
          operationId: 'agentStudio.knowledgeGaps.list',
          tags,
          summary: 'Customer questions the agent handed off on tickets because no published article answered them (admins)',
          description:
            'Read from the agent’s runs on tickets of the last `days` days that ended in a hand-off because the knowledge ' +
            'base had no answer, or the answer rested on no published article (not failed runs). Questions are grouped ' +
            'by their significant terms; groups come most asked first, then most recently asked.',
          params: AgentIdParamsSchema,
          querystring: ListKnowledgeGapsQuerySchema,
          response: { 200: PagedArraySchema(KnowledgeGapSchema, 'Most asked first'), ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request, reply) =>
        sendPage(reply, await listKnowledgeGaps(deps, request.principal, request.params.agent_id, request.query)),
    );
  };
}
