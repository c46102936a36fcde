import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import { AgentIdParamsSchema } from '../agents/agent.schemas.js';
import { getAgentRun, listAgentRuns } from './agent-run.lookup.js';
import { AgentRunSchema, ApprovalDecisionSchema, ListRunsQuerySchema, RunParamsSchema } from './agent-run.schemas.js';
import { decideApproval } from './agent-run.service.js';
import { agentRuntimeOf } from './agent-runtime.js';
import { streamRun, wantsEventStream } from './run-answer.js';

const tags = ['agent runs'];
const DECISION_DESCRIPTION =
  'Answers when the run ends or pauses again, with the run; with `Accept: text/event-stream`, streams it as POST …/messages does.';

export function agentRunRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const runtime = agentRuntimeOf(deps);

    app.get(
      '/agents/:agent_id/runs',
      {
        schema: {
          operationId: 'agentStudio.runs.list',
          tags,
          summary: "A page of the agent's runs, newest first: the caller's own, or all of them for admins",
          params: AgentIdParamsSchema,
          querystring: ListRunsQuerySchema,
          response: { 200: PagedArraySchema(AgentRunSchema, 'Newest first'), ...agentStudioErrorResponses([404]) },
        },
      },
      async (request, reply) =>
        sendPage(reply, await listAgentRuns(deps.db, request.principal, request.params.agent_id, request.query)),
    );

    app.get(
      '/agents/:agent_id/runs/:run_id',
      {
        schema: {
          operationId: 'agentStudio.runs.get',
          tags,
          summary: 'One run: status, steps, tokens, cost, latency, tool calls, error',
          params: RunParamsSchema,
          response: { 200: AgentRunSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => getAgentRun(deps.db, request.principal, request.params.agent_id, request.params.run_id),
    );

    for (const [action, approved] of [
      ['approve', true],
      ['reject', false],
    ] as const) {
      app.post(
        `/agents/:agent_id/runs/:run_id/${action}`,
        {
          schema: {
            operationId: `agentStudio.runs.${action}`,
            tags,
            summary: approved
              ? 'Approve the tool calls a run paused for: they run and the run continues'
              : 'Reject the tool calls a run paused for: the run ends as rejected, without asking the model again',
            description: DECISION_DESCRIPTION,
            params: RunParamsSchema,
            body: ApprovalDecisionSchema,
            response: { 200: AgentRunSchema, ...agentStudioErrorResponses([404, 409]) },
          },
        },
        async (request, reply) => {
          const { agent_id: agentId, run_id: runId } = request.params;
          const decided = await decideApproval(runtime, request.principal, agentId, runId, {
            approved,
            reason: request.body?.reason ?? null,
          });
          if (wantsEventStream(request)) {
            streamRun(runtime, reply, decided.runId);
            return reply;
          }
          return decided.finished;
        },
      );
    }
  };
}
