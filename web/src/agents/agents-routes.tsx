import { type AnyRoute, createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { agentActivityRoutes } from './agent-activity-routes';

/**
 * The AI agents area below /app/agents, loaded when first opened: the agents and model providers
 * of the agent studio's API (`/api/v1`), a page per item.
 */
export function agentsRoutes<Parent extends AnyRoute>(parent: Parent) {
  const agents = createRoute({
    getParentRoute: () => parent,
    path: 'agents',
    component: lazyRouteComponent(() => import('./AgentsPage'), 'AgentsPage'),
  });
  const newAgent = createRoute({
    getParentRoute: () => parent,
    path: 'agents/new',
    component: lazyRouteComponent(() => import('./AgentPage'), 'NewAgentPage'),
  });
  const agent = createRoute({
    getParentRoute: () => parent,
    path: 'agents/$agentId',
    component: lazyRouteComponent(() => import('./AgentPage'), 'AgentPage'),
  });
  const playground = createRoute({
    getParentRoute: () => parent,
    path: 'agents/$agentId/playground',
    component: lazyRouteComponent(() => import('./playground/PlaygroundPage'), 'PlaygroundPage'),
  });
  // Where an MCP server's authorization window comes back to (the server's default MCP_OAUTH_RETURN_URL).
  const mcpConnected = createRoute({
    getParentRoute: () => parent,
    path: 'agents/mcp-connected',
    component: lazyRouteComponent(() => import('./tools/McpConnectedPage'), 'McpConnectedPage'),
  });
  const newProvider = createRoute({
    getParentRoute: () => parent,
    path: 'agents/providers/new',
    component: lazyRouteComponent(() => import('./ProviderPage'), 'NewProviderPage'),
  });
  const provider = createRoute({
    getParentRoute: () => parent,
    path: 'agents/providers/$providerId',
    component: lazyRouteComponent(() => import('./ProviderPage'), 'ProviderPage'),
  });
  return [agents, newAgent, agent, playground, mcpConnected, newProvider, provider, ...agentActivityRoutes(parent)] as const;
}
