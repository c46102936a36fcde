import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import { resultMessageOf } from '../runtime/agent-run.lookup.js';
import { startChatRun } from '../runtime/agent-run.service.js';
import { agentRuntimeOf } from '../runtime/agent-runtime.js';
import { streamRun, wantsEventStream } from '../runtime/run-answer.js';
import {
  ChatAgentParamsSchema,
  ChatHistoryQuerySchema,
  ChatHistorySchema,
  ChatMessageSchema,
  ChatPageQuerySchema,
  ChatThreadParamsSchema,
  ChatThreadSchema,
  ChatThreadSummarySchema,
  CreateMessageSchema,
  CreateThreadSchema,
} from './chat.schemas.js';
import { addMessage, createThread, getChatHistory, getThread, listThreadMessages, listThreads } from './chat.service.js';

const tags = ['chat'];
const RUN_DESCRIPTION = [
  'A `user` message to an active agent that has a model (its `configuration.model_provider_id`, or the server default',
  '`LLM_BASE_URL`) starts a run, queued behind the run the thread may be busy with. The answer is the assistant message',
  'the run wrote when it ended: its answer (with its `tool_calls`), its approval request (`metadata.approval_request`),',
  'or its failure (`metadata.run_error`); `metadata.run_id` names the run. With `Accept: text/event-stream` the run',
  'streams instead as Server-Sent Events: `run`, `text_delta`, `tool_call_start`, `tool_call_end`, `approval_required`,',
  '`message`, `usage`, `done`. A client that disconnects does not stop the run. Other messages are stored as they are.',
].join(' ');

export function chatRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const runtime = agentRuntimeOf(deps);

    app.get(
      '/chat/history',
      {
        schema: {
          operationId: 'agentStudio.chat.history',
          tags,
          summary: "The caller's chat threads, latest activity first, each with its messages",
          querystring: ChatHistoryQuerySchema,
          response: { 200: ChatHistorySchema, ...agentStudioErrorResponses([]) },
        },
      },
      async (request) => getChatHistory(deps.db, request.principal, request.query),
    );

    app.post(
      '/chat/:agent_id/threads',
      {
        schema: {
          operationId: 'agentStudio.chat.createThread',
          tags,
          summary: "Start a thread with an agent of the caller's organization; the thread belongs to the caller",
          params: ChatAgentParamsSchema,
          body: CreateThreadSchema,
          response: { 200: ChatThreadSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => createThread(deps, request.principal, request.params.agent_id, request.body),
    );

    app.get(
      '/chat/:agent_id/threads',
      {
        schema: {
          operationId: 'agentStudio.chat.listThreads',
          tags,
          summary: "A page of the caller's threads with the agent, latest activity first, without their messages",
          params: ChatAgentParamsSchema,
          querystring: ChatPageQuerySchema,
          response: {
            200: PagedArraySchema(ChatThreadSummarySchema, 'Latest activity first (last_activity_at, then id, descending)'),
            ...agentStudioErrorResponses([404]),
          },
        },
      },
      async (request, reply) =>
        sendPage(reply, await listThreads(deps.db, request.principal, request.params.agent_id, request.query)),
    );

    app.get(
      '/chat/:agent_id/threads/:thread_id',
      {
        schema: {
          operationId: 'agentStudio.chat.getThread',
          tags,
          summary: 'One of the caller’s threads with all its messages, oldest first',
          params: ChatThreadParamsSchema,
          response: { 200: ChatThreadSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => getThread(deps.db, request.principal, request.params.agent_id, request.params.thread_id),
    );

    app.post(
      '/chat/:agent_id/threads/:thread_id/messages',
      {
        schema: {
          operationId: 'agentStudio.chat.addMessage',
          tags,
          summary: 'Add a message to one of the caller’s threads; a user message to an agent with a model starts a run',
          description: RUN_DESCRIPTION,
          params: ChatThreadParamsSchema,
          body: CreateMessageSchema,
          response: { 200: ChatMessageSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request, reply) => {
        const { agent_id: agentId, thread_id: threadId } = request.params;
        const started =
          request.body.role === 'user' ? await startChatRun(runtime, request.principal, agentId, threadId, request.body) : null;
        if (!started) {
          return addMessage(deps, request.principal, agentId, threadId, request.body);
        }
        if (wantsEventStream(request)) {
          streamRun(runtime, reply, started.runId);
          return reply;
        }
        return (await resultMessageOf(deps.db, await started.finished)) ?? started.userMessage;
      },
    );

    app.get(
      '/chat/:agent_id/threads/:thread_id/messages',
      {
        schema: {
          operationId: 'agentStudio.chat.listMessages',
          tags,
          summary: 'A page of a thread’s messages, oldest first',
          params: ChatThreadParamsSchema,
          querystring: ChatPageQuerySchema,
          response: {
            200: PagedArraySchema(ChatMessageSchema, 'Oldest first, in write order'),
            ...agentStudioErrorResponses([404]),
          },
        },
      },
      async (request, reply) =>
        sendPage(
          reply,
          await listThreadMessages(deps.db, request.principal, request.params.agent_id, request.params.thread_id, request.query),
        ),
    );
  };
}
