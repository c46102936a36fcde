import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.js';
import { setUpArea } from '../http/area.js';
import { AgentStudioErrorSchema, AgentStudioValidationErrorSchema, renderAgentStudioError } from './agent-studio.errors.js';

/** The agent studio, mounted under `/api/v1`: snake_case, bare objects, FastAPI-style errors. */
export function agentStudioPlugin(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await setUpArea(app, deps, {
      name: 'agentStudio',
      title: 'Switchboard agent studio',
      description: 'AI agents, their tools, MCP server connections and chat history.',
      errorSchemas: { AgentStudioError: AgentStudioErrorSchema, AgentStudioValidationError: AgentStudioValidationErrorSchema },
      renderError: renderAgentStudioError,
    });
  };
}
