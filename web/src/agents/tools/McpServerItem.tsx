import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import {
  type AgentTool,
  deleteAgentTool,
  disconnectMcpServer,
  type McpServer,
  mcpServersKey,
  mcpServerToolsQuery,
  toolsKey,
} from './tool-queries';
import { useMcpConnect } from './use-mcp-connect';

const STATES: Record<McpServer['connection_state'], { label: string; tone: BadgeTone }> = {
  connected: { label: 'Connected', tone: 'green' },
  disconnected: { label: 'Not connected', tone: 'neutral' },
  pending_auth: { label: 'Waiting for authorization', tone: 'amber' },
  auth_required: { label: 'Authorization needed', tone: 'amber' },
  error: { label: 'Error', tone: 'red' },
};

/** The tools a connected server offers the agent. */
function ServerTools({ server }: { server: McpServer }) {
  const tools = useQuery(mcpServerToolsQuery(server));
  if (tools.error) {
    return <ErrorNotice error={tools.error} />;
  }
  if (!tools.data) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Reading its tools…</p>;
  }
  return (
    <ul aria-label={`Tools of ${server.name}`} className="flex flex-col gap-1 text-sm">
      {tools.data.map((tool) => (
        <li key={tool.name}>
          <span className="font-mono font-medium">{tool.name}</span>
          {tool.description ? <span className="text-zinc-600 dark:text-zinc-400">{` — ${tool.description}`}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * One MCP server of the agent: its state and why, "Connect" (with the authorization window when it
 * asks for one), its tools once connected, and "Disconnect", which removes it with its agent tools.
 */
export function McpServerItem({ server, agentTools }: { server: McpServer; agentTools: AgentTool[] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const { connect, connecting, outcome } = useMcpConnect(server);
  const disconnect = useMutation({
    mutationFn: async () => {
      await disconnectMcpServer(server);
      // The server's agent tools were disabled with it; without it they can never run, so they go too.
      for (const tool of agentTools.filter((item) => item.mcp_server_id === server.id)) {
        await deleteAgentTool(tool);
      }
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: mcpServersKey(server.agent_id) });
      await queryClient.invalidateQueries({ queryKey: toolsKey(server.agent_id) });
    },
  });
  const state = STATES[server.connection_state];
  const connected = server.status === 'connected';
  return (
    <li aria-labelledby={`${id}-name`} className="flex flex-col gap-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span id={`${id}-name`} className="font-medium">
          {server.name}
        </span>
        <Badge tone={state.tone}>{state.label}</Badge>
        <div className="ml-auto flex gap-2">
          {connected ? null : (
            <Button variant="primary" disabled={connecting} onClick={() => void connect()}>
              {connecting ? 'Connecting…' : 'Connect'}
            </Button>
          )}
          <Button disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
            Disconnect
          </Button>
        </div>
      </div>
      <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{server.url}</p>
      {server.status_message && !connected ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{server.status_message}</p>
      ) : null}
      {outcome ? (
        <p
          role={outcome.ok ? 'status' : 'alert'}
          className={outcome.ok ? 'text-sm text-emerald-800 dark:text-emerald-300' : 'text-sm text-red-800 dark:text-red-300'}
        >
          {outcome.text}
        </p>
      ) : null}
      {connected ? <ServerTools server={server} /> : null}
      <ErrorNotice error={disconnect.error} />
    </li>
  );
}
