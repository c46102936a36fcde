import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import {
  AgentIdParamsSchema,
  AgentSchema,
  CreateAgentSchema,
  DeletedSchema,
  ListAgentsQuerySchema,
  UpdateAgentSchema,
} from './agent.schemas.js';
import { createAgent, deleteAgent, getAgent, listOrganizationAgents, updateAgentDetails } from './agent.service.js';

const tags = ['agents'];

export function agentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/agents',
      {
        schema: {
          operationId: 'agentStudio.agents.create',
          tags,
          summary: 'Create an agent of the organization (admins); the caller becomes its creator',
          body: CreateAgentSchema,
          response: { 200: AgentSchema, ...agentStudioErrorResponses([403]) },
        },
      },
      async (request) => createAgent(deps, request.principal, request.body),
    );

    app.get(
      '/agents',
      {
        schema: {
          operationId: 'agentStudio.agents.list',
          tags,
          summary: "A page of the organization's agents, oldest first",
          querystring: ListAgentsQuerySchema,
          response: {
            200: PagedArraySchema(AgentSchema, 'Oldest first (created_at, then id)'),
            ...agentStudioErrorResponses([]),
          },
        },
      },
      async (request, reply) => sendPage(reply, await listOrganizationAgents(deps, request.principal, request.query)),
    );

    app.get(
      '/agents/:agent_id',
      {
        schema: {
          operationId: 'agentStudio.agents.get',
          summary: 'One agent of the organization',
          tags,
          params: AgentIdParamsSchema,
          response: { 200: AgentSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => getAgent(deps, request.principal, request.params.agent_id),
    );

    app.put(
      '/agents/:agent_id',
      {
        schema: {
          operationId: 'agentStudio.agents.update',
          tags,
          summary: 'Change an agent (admins); fields left out stay as they are',
          params: AgentIdParamsSchema,
          body: UpdateAgentSchema,
          response: { 200: AgentSchema, ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request) => updateAgentDetails(deps, request.principal, request.params.agent_id, request.body),
    );

    app.delete(
      '/agents/:agent_id',
      {
        schema: {
          operationId: 'agentStudio.agents.delete',
          tags,
          summary: 'Soft-delete an agent (admins); it and everything under it then answer 404',
          params: AgentIdParamsSchema,
          response: { 200: DeletedSchema, ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request) => deleteAgent(deps, request.principal, request.params.agent_id),
    );
  };
}
