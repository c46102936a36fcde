import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.js';
import { setUpArea } from '../http/area.js';
import { AgentStudioErrorSchema, AgentStudioValidationErrorSchema, renderAgentStudioError } from './agent-studio.errors.js';
import { agentRoutes } from './agents/agent.routes.js';
import { chatRoutes } from './chats/chat.routes.js';
import { knowledgeGapRoutes } from './knowledge-gaps/knowledge-gap.routes.js';
import { mcpServerRoutes } from './mcp-servers/mcp-server.routes.js';
import { modelAccessOf } from './model-providers/model-client.js';
import { modelProviderRoutes } from './model-providers/model-provider.routes.js';
import { agentRunRoutes } from './runtime/agent-run.routes.js';
import { closeAgentRuntime } from './runtime/agent-runtime.js';
import { agentToolRoutes } from './tools/agent-tool.routes.js';

/** The agent studio, mounted under `/api/v1`: snake_case, bare objects, FastAPI-style errors. */
export function agentStudioPlugin(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await setUpArea(app, deps, {
      name: 'agentStudio',
      title: 'Switchboard agent studio',
      description: 'AI agents, their tools, MCP server connections and chat history.',
      errorSchemas: { AgentStudioError: AgentStudioErrorSchema, AgentStudioValidationError: AgentStudioValidationErrorSchema },
      tags: [
        { name: 'agents', description: 'AI agents: their description, configuration and status.' },
        { name: 'agent tools', description: 'Built-in tools and MCP tools an agent may call.' },
        { name: 'chat', description: 'Conversations with an agent: threads, messages and history.' },
        { name: 'mcp servers', description: 'MCP servers an agent connects to, with OAuth where they need it.' },
        { name: 'agent runs', description: 'Each time an agent answers: status, usage, tool calls, approvals.' },
        { name: 'model providers', description: 'The language models agents run on: OpenAI-compatible endpoints and Anthropic.' },
      ],
      renderError: renderAgentStudioError,
      // The console's AI agents pages call it with the signed-in session, its CSRF and Origin checks as the platform's.
      acceptsSessions: true,
    });
    await app.register(agentRoutes(deps));
    await app.register(agentToolRoutes(deps));
    await app.register(chatRoutes(deps));
    await app.register(mcpServerRoutes(deps));
    await app.register(modelProviderRoutes(deps));
    await app.register(agentRunRoutes(deps));
    await app.register(knowledgeGapRoutes(deps));
    app.addHook('onClose', async () => {
      // Runs first: they end failed ("the server stopped") while their pools and the database are still open.
      await closeAgentRuntime(deps);
      await modelAccessOf(deps).outbound.close();
    });
  };
}
