import { queryOptions } from '@tanstack/react-query';
import type { operations } from '../../api/agent-studio';
import { studio, unwrapStudio } from '../../api/agent-studio-client';
import { readAllPages } from '../../api/read-all-pages';
import { AGENTS_KEY, PAGE, pageOf } from '../studio-queries';

type Answer<Operation extends keyof operations> = operations[Operation]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
type Body<Operation extends keyof operations> = operations[Operation]['requestBody'] extends
  | { content: { 'application/json': infer Sent } }
  | undefined
  ? Sent
  : never;

export type AgentTool = Answer<'agentStudio.agentTools.get'>;
export type AgentToolCreate = Body<'agentStudio.agentTools.create'>;
export type AgentToolUpdate = Body<'agentStudio.agentTools.update'>;
export type BuiltInTool = Answer<'agentStudio.tools.builtIn'>[number];
export type McpServer = Answer<'agentStudio.mcpServers.get'>;
export type McpServerCreate = Body<'agentStudio.mcpServers.create'>;
export type McpDiscoveredTool = Answer<'agentStudio.mcpServers.tools'>[number];
export type McpConnectResult = Answer<'agentStudio.mcpServers.connect'>;

/** An agent's tools and MCP servers sit below its key, so deleting the agent forgets them too. */
export const toolsKey = (agentId: string) => [...AGENTS_KEY, agentId, 'tools'] as const;
export const mcpServersKey = (agentId: string) => [...AGENTS_KEY, agentId, 'mcp-servers'] as const;

export const builtInToolsQuery = queryOptions({
  queryKey: ['agent-studio', 'built-in-tools'],
  queryFn: () => unwrapStudio(studio.GET('/api/v1/tools/built-in')),
  staleTime: Number.POSITIVE_INFINITY,
});

export const agentToolsQuery = (agentId: string) =>
  queryOptions({
    queryKey: toolsKey(agentId),
    queryFn: () =>
      readAllPages((cursor) =>
        pageOf<AgentTool>(
          studio.GET('/api/v1/agents/{agent_id}/tools', {
            params: { path: { agent_id: agentId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
          }),
        ),
      ),
  });

export const mcpServersQuery = (agentId: string) =>
  queryOptions({
    queryKey: mcpServersKey(agentId),
    queryFn: () =>
      readAllPages((cursor) =>
        pageOf<McpServer>(
          studio.GET('/api/v1/mcp/agents/{agent_id}/servers', {
            params: { path: { agent_id: agentId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
          }),
        ),
      ),
  });

/** The tools a connected server offers, read again whenever the server's row changes. */
export const mcpServerToolsQuery = (server: McpServer) =>
  queryOptions({
    queryKey: [...mcpServersKey(server.agent_id), server.id, 'tools', server.updated_at],
    queryFn: () =>
      unwrapStudio(
        studio.GET('/api/v1/mcp/agents/{agent_id}/servers/{server_id}/tools', {
          params: { path: { agent_id: server.agent_id, server_id: server.id } },
        }),
      ),
  });

export const createAgentTool = (agentId: string, body: AgentToolCreate) =>
  unwrapStudio(studio.POST('/api/v1/agents/{agent_id}/tools', { params: { path: { agent_id: agentId } }, body }));

export const updateAgentTool = (tool: AgentTool, body: AgentToolUpdate) =>
  unwrapStudio(
    studio.PUT('/api/v1/agents/{agent_id}/tools/{tool_id}', {
      params: { path: { agent_id: tool.agent_id, tool_id: tool.id } },
      body,
    }),
  );

export const deleteAgentTool = (tool: AgentTool) =>
  unwrapStudio(
    studio.DELETE('/api/v1/agents/{agent_id}/tools/{tool_id}', {
      params: { path: { agent_id: tool.agent_id, tool_id: tool.id } },
    }),
  );

export const createMcpServer = (agentId: string, body: McpServerCreate) =>
  unwrapStudio(studio.POST('/api/v1/mcp/agents/{agent_id}/servers', { params: { path: { agent_id: agentId } }, body }));

/** Endpoint 15: connected at once, or the authorization URL a person must visit, or why not. */
export const connectMcpServer = (server: McpServer) =>
  unwrapStudio(
    studio.POST('/api/v1/mcp/agents/{agent_id}/servers/{server_id}/connect', {
      params: { path: { agent_id: server.agent_id, server_id: server.id } },
    }),
  );

/** Endpoint 16: tokens revoked, credentials deleted, the server gone and its agent tools disabled. */
export const disconnectMcpServer = (server: McpServer) =>
  unwrapStudio(
    studio.DELETE('/api/v1/mcp/agents/{agent_id}/servers/{server_id}', {
      params: { path: { agent_id: server.agent_id, server_id: server.id } },
    }),
  );
