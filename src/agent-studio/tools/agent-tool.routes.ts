import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import { AgentIdParamsSchema, DeletedSchema } from '../agents/agent.schemas.js';
import {
  AgentToolParamsSchema,
  AgentToolSchema,
  BuiltInToolSchema,
  CreateAgentToolSchema,
  ListAgentToolsQuerySchema,
  UpdateAgentToolSchema,
} from './agent-tool.schemas.js';
import {
  createAgentTool,
  deleteAgentToolById,
  getAgentTool,
  listBuiltInTools,
  listToolsOfAgent,
  updateAgentToolDetails,
} from './agent-tool.service.js';

const tags = ['agent tools'];

export function agentToolRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tools/built-in',
      {
        schema: {
          operationId: 'agentStudio.tools.builtIn',
          tags,
          summary: "The built-in tool catalog, with the JSON Schema of each tool's configuration",
          response: { 200: Type.Array(BuiltInToolSchema), ...agentStudioErrorResponses([]) },
        },
      },
      async () => listBuiltInTools(),
    );

    app.post(
      '/agents/:agent_id/tools',
      {
        schema: {
          operationId: 'agentStudio.agentTools.create',
          tags,
          summary: 'Give an agent a tool; tool_name is unique per agent',
          params: AgentIdParamsSchema,
          body: CreateAgentToolSchema,
          response: { 200: AgentToolSchema, ...agentStudioErrorResponses([403, 404, 409]) },
        },
      },
      async (request) => createAgentTool(deps, request.principal, request.params.agent_id, request.body),
    );

    app.get(
      '/agents/:agent_id/tools',
      {
        schema: {
          operationId: 'agentStudio.agentTools.list',
          tags,
          summary: "A page of an agent's tools in creation order",
          params: AgentIdParamsSchema,
          querystring: ListAgentToolsQuerySchema,
          response: {
            200: PagedArraySchema(AgentToolSchema, 'In creation order (created_at, then id)'),
            ...agentStudioErrorResponses([404]),
          },
        },
      },
      async (request, reply) =>
        sendPage(reply, await listToolsOfAgent(deps.db, request.principal, request.params.agent_id, request.query)),
    );

    app.get(
      '/agents/:agent_id/tools/:tool_id',
      {
        schema: {
          operationId: 'agentStudio.agentTools.get',
          summary: 'One tool of an agent',
          tags,
          params: AgentToolParamsSchema,
          response: { 200: AgentToolSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => getAgentTool(deps.db, request.principal, request.params.agent_id, request.params.tool_id),
    );

    app.put(
      '/agents/:agent_id/tools/:tool_id',
      {
        schema: {
          operationId: 'agentStudio.agentTools.update',
          tags,
          summary: 'Change a tool; the result is checked like a new one',
          params: AgentToolParamsSchema,
          body: UpdateAgentToolSchema,
          response: { 200: AgentToolSchema, ...agentStudioErrorResponses([403, 404, 409]) },
        },
      },
      async (request) =>
        updateAgentToolDetails(deps, request.principal, request.params.agent_id, request.params.tool_id, request.body),
    );

    app.delete(
      '/agents/:agent_id/tools/:tool_id',
      {
        schema: {
          operationId: 'agentStudio.agentTools.delete',
          summary: 'Remove a tool from an agent (organization admins)',
          tags,
          params: AgentToolParamsSchema,
          response: { 200: DeletedSchema, ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request) => deleteAgentToolById(deps, request.principal, request.params.agent_id, request.params.tool_id),
    );
  };
}
