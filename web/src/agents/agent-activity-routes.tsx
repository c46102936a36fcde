import { type AnyRoute, createRoute, lazyRouteComponent } from '@tanstack/react-router';

/**
 * What the agents did, below /app/agents: an agent's runs and knowledge gaps, and the signed-in
 * user's chat history, read-only. Static segments (`chats`) rank before an agent's id.
 */
export function agentActivityRoutes<Parent extends AnyRoute>(parent: Parent) {
  const runs = createRoute({
    getParentRoute: () => parent,
    path: 'agents/$agentId/runs',
    component: lazyRouteComponent(() => import('./runs/RunsPage'), 'RunsPage'),
  });
  const run = createRoute({
    getParentRoute: () => parent,
    path: 'agents/$agentId/runs/$runId',
    component: lazyRouteComponent(() => import('./runs/RunPage'), 'RunPage'),
  });
  const knowledgeGaps = createRoute({
    getParentRoute: () => parent,
    path: 'agents/$agentId/knowledge-gaps',
    component: lazyRouteComponent(() => import('./knowledge-gaps/KnowledgeGapsPage'), 'KnowledgeGapsPage'),
  });
  const chats = createRoute({
    getParentRoute: () => parent,
    path: 'agents/chats',
    component: lazyRouteComponent(() => import('./chats/ChatsPage'), 'ChatsPage'),
  });
  const chat = createRoute({
    getParentRoute: () => parent,
    path: 'agents/chats/$agentId/$threadId',
    component: lazyRouteComponent(() => import('./chats/ChatPage'), 'ChatPage'),
  });
  return [runs, run, knowledgeGaps, chats, chat] as const;
}
