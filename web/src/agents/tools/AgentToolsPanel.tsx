import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { AgentToolRow } from './AgentToolRow';
import { BuiltInToolPicker } from './BuiltInToolPicker';
import { ExternalToolForm } from './ExternalToolForm';
import { McpServerForm, type McpServerFormValues } from './McpServerForm';
import { McpServerItem } from './McpServerItem';
import {
  type AgentTool,
  type AgentToolCreate,
  agentToolsQuery,
  builtInToolsQuery,
  createAgentTool,
  createMcpServer,
  disconnectMcpServer,
  type McpServer,
  mcpServersKey,
  mcpServersQuery,
  toolsKey,
} from './tool-queries';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Adder({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <summary className="cursor-pointer text-sm font-medium">{summary}</summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}

/** What a row of the list is called: a built-in's display name, the server's name, else the tool's own. */
function labelOf(tool: AgentTool, catalog: Map<string, string>, servers: McpServer[]): string {
  if (tool.tool_type === 'built_in') {
    return catalog.get(tool.tool_name) ?? tool.tool_name;
  }
  if (tool.tool_type === 'mcp_server') {
    return servers.find((server) => server.id === tool.mcp_server_id)?.name ?? tool.tool_name;
  }
  return tool.tool_name;
}

/**
 * The agent's tools (endpoint 14): the built-in ones picked from the catalog, external HTTP tools
 * and MCP servers (endpoints 15 and 16 connect and remove them); each enabled, disabled or removed.
 */
export function AgentToolsPanel({ agentId }: { agentId: string }) {
  const queryClient = useQueryClient();
  const tools = useQuery(agentToolsQuery(agentId));
  const catalog = useQuery(builtInToolsQuery);
  const servers = useQuery(mcpServersQuery(agentId));
  const given = tools.data ?? [];
  const serverList = servers.data ?? [];
  const names = new Map((catalog.data ?? []).map((tool) => [tool.tool_name, tool.display_name]));
  const descriptions = new Map((catalog.data ?? []).map((tool) => [tool.tool_name, tool.description]));
  const taken = new Set(given.filter((tool) => tool.tool_type === 'built_in').map((tool) => tool.tool_name));

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: toolsKey(agentId) });
    await queryClient.invalidateQueries({ queryKey: mcpServersKey(agentId) });
  };
  const addTool = async (body: AgentToolCreate) => {
    await createAgentTool(agentId, body);
    await refresh();
  };
  const addServer = async (values: McpServerFormValues) => {
    const server = await createMcpServer(agentId, { name: values.name, url: values.url });
    try {
      await createAgentTool(agentId, {
        agent_id: agentId,
        tool_name: values.name,
        tool_type: 'mcp_server',
        mcp_server_id: server.id,
        require_approval: values.require_approval,
      });
    } catch (error) {
      // Not offered to the agent, the server would be a stray: it goes, and the form says why.
      await disconnectMcpServer(server).catch(() => undefined);
      throw error;
    }
    await refresh();
  };

  return (
    <div className="flex flex-col gap-6">
      <Section title="Tools">
        <ErrorNotice error={tools.error ?? catalog.error} />
        {tools.data && given.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No tools yet: the agent can only talk.</p>
        ) : null}
        {given.length > 0 ? (
          <ul aria-label="Tools of the agent" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {given.map((tool) => (
              <AgentToolRow
                key={tool.id}
                tool={tool}
                label={labelOf(tool, names, serverList)}
                description={tool.tool_type === 'built_in' ? descriptions.get(tool.tool_name) : undefined}
              />
            ))}
          </ul>
        ) : null}
        <Adder summary="Add a built-in tool">
          <BuiltInToolPicker
            available={(catalog.data ?? []).filter((tool) => !taken.has(tool.tool_name))}
            onAdd={(tool, requireApproval) =>
              addTool({ agent_id: agentId, tool_name: tool.tool_name, tool_type: 'built_in', require_approval: requireApproval })
            }
          />
        </Adder>
        <Adder summary="Add an external tool">
          <ExternalToolForm agentId={agentId} onSave={addTool} />
        </Adder>
      </Section>
      <Section title="MCP servers">
        <ErrorNotice error={servers.error} />
        {servers.data && serverList.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No MCP servers yet.</p>
        ) : null}
        {serverList.length > 0 ? (
          <ul aria-label="MCP servers of the agent" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {serverList.map((server) => (
              <McpServerItem key={server.id} server={server} agentTools={given} />
            ))}
          </ul>
        ) : null}
        <Adder summary="Add an MCP server">
          <McpServerForm onSave={addServer} />
        </Adder>
      </Section>
    </div>
  );
}
