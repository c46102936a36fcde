import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import type { Principal } from '../../lib/principal.js';
import { AgentStudioErrorSchema, agentStudioErrorResponses } from '../agent-studio.errors.js';
import { completeAuthorization, connectMcpServer } from './mcp-connection.service.js';
import { type McpRuntime, mcpRuntimeOf } from './mcp-runtime.js';
import {
  AgentParamsSchema,
  CallbackQuerySchema,
  CallbackResultSchema,
  ConnectResultSchema,
  CreateMcpServerSchema,
  DiscoveredToolSchema,
  ListMcpServersQuerySchema,
  McpServerSchema,
  RemovedSchema,
  ServerParamsSchema,
  UpdateMcpServerSchema,
} from './mcp-server.schemas.js';
import {
  createMcpServer,
  getMcpServer,
  listDiscoveredTools,
  listServersOfAgent,
  removeMcpServer,
  updateMcpServerDetails,
} from './mcp-server.service.js';

const tags = ['mcp servers'];
const SERVER = '/mcp/agents/:agent_id/servers/:server_id';
const INVALID_STATE = 'Invalid or expired authorization state';
/** A connect that failed still answers the connection result; a malformed request answers `{detail}`. */
const ConnectFailureSchema = Type.Union([ConnectResultSchema, AgentStudioErrorSchema]);

export function mcpServerRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const runtime = mcpRuntimeOf(deps);
    app.addHook('onClose', async () => runtime.outbound.close());

    registerServerRoutes(app, runtime);
    registerConnectionRoutes(app, deps, runtime);
  };
}

/** An agent's MCP servers: add, list, read, change, and the tools a server offers. */
function registerServerRoutes(app: TypeBoxApp, runtime: McpRuntime): void {
  app.post(
    '/mcp/agents/:agent_id/servers',
    {
      schema: {
        operationId: 'agentStudio.mcpServers.create',
        tags,
        summary: 'Add an MCP server to an agent; secrets in auth_config are stored encrypted and never shown',
        params: AgentParamsSchema,
        body: CreateMcpServerSchema,
        response: { 200: McpServerSchema, ...agentStudioErrorResponses([403, 404]) },
      },
    },
    async (request) => createMcpServer(runtime, request.principal, request.params.agent_id, request.body),
  );

  app.get(
    '/mcp/agents/:agent_id/servers',
    {
      schema: {
        operationId: 'agentStudio.mcpServers.list',
        summary: "A page of an agent's MCP servers, optionally only those with one status",
        tags,
        params: AgentParamsSchema,
        querystring: ListMcpServersQuerySchema,
        response: {
          200: PagedArraySchema(McpServerSchema, 'In creation order (created_at, then id)'),
          ...agentStudioErrorResponses([404]),
        },
      },
    },
    async (request, reply) =>
      sendPage(reply, await listServersOfAgent(runtime, request.principal, request.params.agent_id, request.query)),
  );

  app.get(
    SERVER,
    {
      schema: {
        operationId: 'agentStudio.mcpServers.get',
        summary: 'One MCP server of an agent',
        tags,
        params: ServerParamsSchema,
        response: { 200: McpServerSchema, ...agentStudioErrorResponses([404]) },
      },
    },
    async (request) => getMcpServer(runtime, request.principal, request.params.agent_id, request.params.server_id),
  );

  app.put(
    SERVER,
    {
      schema: {
        operationId: 'agentStudio.mcpServers.update',
        tags,
        summary: 'Change a server; a new url or new credentials disconnect it and forget its tokens',
        params: ServerParamsSchema,
        body: UpdateMcpServerSchema,
        response: { 200: McpServerSchema, ...agentStudioErrorResponses([403, 404]) },
      },
    },
    async (request) =>
      updateMcpServerDetails(runtime, request.principal, request.params.agent_id, request.params.server_id, request.body),
  );

  app.get(
    `${SERVER}/tools`,
    {
      schema: {
        operationId: 'agentStudio.mcpServers.tools',
        tags,
        summary: 'The tools the server listed at the last successful connect',
        params: ServerParamsSchema,
        response: { 200: Type.Array(DiscoveredToolSchema), ...agentStudioErrorResponses([404]) },
      },
    },
    async (request) => listDiscoveredTools(runtime, request.principal, request.params.agent_id, request.params.server_id),
  );
}

/** Connecting a server (with OAuth when it asks), removing it, and the OAuth callback; removal sits between them to keep the order in which the published document lists the routes. */
function registerConnectionRoutes(app: TypeBoxApp, deps: AppDeps, runtime: McpRuntime): void {
  app.post(
    `${SERVER}/connect`,
    {
      schema: {
        operationId: 'agentStudio.mcpServers.connect',
        tags,
        summary:
          'Connect to the server over MCP: connected, auth_required with an authorization_url for the user to open, or error (400 blocked by network policy, 502 the server or its authorization failed, 504 timeout)',
        params: ServerParamsSchema,
        response: {
          200: ConnectResultSchema,
          ...agentStudioErrorResponses([403, 404, 429]),
          400: ConnectFailureSchema,
          502: ConnectResultSchema,
          504: ConnectResultSchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await connectMcpServer(runtime, request.principal, request.params.agent_id, request.params.server_id);
      return reply.code(outcome.httpStatus).send(outcome.result);
    },
  );

  app.delete(
    SERVER,
    {
      schema: {
        operationId: 'agentStudio.mcpServers.remove',
        tags,
        summary:
          'Remove a server: revokes its tokens where the authorization server allows it, deletes its credentials and disables the agent tools that used it',
        params: ServerParamsSchema,
        response: { 200: RemovedSchema, ...agentStudioErrorResponses([403, 404]) },
      },
    },
    async (request) => removeMcpServer(runtime, request.principal, request.params.agent_id, request.params.server_id),
  );

  app.get(
    '/mcp/oauth/callback',
    {
      // The single-use state authenticates this request: the browser comes back without a key.
      config: { public: true },
      schema: {
        operationId: 'agentStudio.mcpServers.oauthCallback',
        tags,
        summary:
          'Where the authorization server sends the browser back; redirects to MCP_OAUTH_RETURN_URL when set, else answers the result',
        security: [],
        querystring: CallbackQuerySchema,
        response: {
          200: CallbackResultSchema,
          302: Type.Null({ description: 'To MCP_OAUTH_RETURN_URL?mcp=connected|auth_required|error&agent_id=…&server_id=…' }),
          ...agentStudioErrorResponses([]),
          400: AgentStudioErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const outcome = await completeAuthorization(runtime, request.query, await callerOf(deps, request));
      if (outcome.kind === 'invalid') {
        return reply.code(400).send({ detail: INVALID_STATE });
      }
      const { agentId, serverId, result } = outcome;
      if (runtime.returnUrl) {
        const target = new URL(runtime.returnUrl);
        target.searchParams.set('mcp', result.status);
        target.searchParams.set('agent_id', agentId);
        target.searchParams.set('server_id', serverId);
        return reply.redirect(target.href, 302);
      }
      return reply.code(200).send({ status: result.status, message: result.message, agent_id: agentId, server_id: serverId });
    },
  );
}

/** A callback carrying an API key must come from the user who started the flow. */
async function callerOf(deps: AppDeps, request: FastifyRequest): Promise<Principal | null> {
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ? deps.auth.verify(key.trim()) : null;
}
