import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { eventFrame, startEventStream } from '../../http/sse.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import { messengerErrorResponses, withRetryAfter } from './messenger.errors.js';
import { HelpCenterSlugParamsSchema } from './messenger.schemas.js';
import {
  AnswerParamsSchema,
  AskAnswerSchema,
  ConversationAnswerSchema,
  ConversationListSchema,
  ConversationMessagesSchema,
  ConversationParamsSchema,
  FeedbackBodySchema,
  RatedAnswerSchema,
  SendMessageBodySchema,
} from './messenger-conversation.schemas.js';
import {
  type AskEvent,
  admitMessage,
  ask,
  conversationMessages,
  listConversations,
  rateAnswer,
  startConversation,
} from './messenger-conversation.service.js';
import { registerHandoffRoutes } from './messenger-handoff.routes.js';
import type { MessengerLiveHub } from './messenger-live.hub.js';
import { visitorOf } from './messenger-request.js';
import type { Visitor } from './messenger-visitor.service.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

const tags = ['messenger'];
const PUBLIC = { public: true };
const VISITOR: Record<string, string[]>[] = [{ visitorToken: [] }];

/** The visitor's conversations with the help center's AI agent (agent-studio chat threads owned by the visitor). */
export function messengerConversationRoutes(deps: AppDeps, live: MessengerLiveHub): FastifyPluginAsyncTypebox {
  return async (app) => {
    registerConversationRoutes(app, deps);
    registerHandoffRoutes(app, deps, live);
    registerAskRoute(app, deps);
    registerFeedbackRoute(app, deps);
  };
}

function registerConversationRoutes(app: TypeBoxApp, deps: AppDeps): void {
  app.get(
    '/:slug/api/conversations',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.list',
        tags,
        summary: "The visitor's conversations, latest activity first (a verified visitor's from any browser)",
        params: HelpCenterSlugParamsSchema,
        security: VISITOR,
        response: { 200: ConversationListSchema, ...messengerErrorResponses([404]) },
      },
    },
    async (request) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      return { conversations: await listConversations(deps, helpCenter, visitor) };
    },
  );

  app.post(
    '/:slug/api/conversations',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.create',
        tags,
        summary:
          "A new conversation with the help center's AI agent (404 when the widget names no agent; 403 verification_required for an anonymous visitor when identities must be verified)",
        params: HelpCenterSlugParamsSchema,
        security: VISITOR,
        response: { 201: ConversationAnswerSchema, ...messengerErrorResponses([403, 404]) },
      },
    },
    async (request, reply) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      return reply.code(201).send({ conversation: await startConversation(deps, helpCenter, visitor) });
    },
  );

  app.get(
    '/:slug/api/conversations/:conversationId/messages',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.messages',
        tags,
        summary: "The conversation's messages as the visitor sees them: theirs and the assistant's answers with their sources",
        params: ConversationParamsSchema,
        security: VISITOR,
        response: { 200: ConversationMessagesSchema, ...messengerErrorResponses([404]) },
      },
    },
    async (request) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      return { messages: await conversationMessages(deps, helpCenter, visitor, request.params.conversationId) };
    },
  );
}

function registerFeedbackRoute(app: TypeBoxApp, deps: AppDeps): void {
  app.post(
    '/:slug/api/conversations/:conversationId/messages/:messageId/feedback',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.feedback',
        tags,
        summary: 'Rate one of the assistant\'s answers ("That helped", or not); a later rating replaces the earlier',
        params: AnswerParamsSchema,
        body: FeedbackBodySchema,
        security: VISITOR,
        response: { 200: RatedAnswerSchema, ...messengerErrorResponses([400, 404]) },
      },
    },
    async (request) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      const { conversationId, messageId } = request.params;
      return {
        message: await rateAnswer(deps, helpCenter, visitor, { conversationId, messageId, helpful: request.body.helpful }),
      };
    },
  );
}

function registerAskRoute(app: TypeBoxApp, deps: AppDeps): void {
  app.post(
    '/:slug/api/conversations/:conversationId/messages',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.ask',
        tags,
        summary:
          'Send a message; the AI agent answers. With `Accept: text/event-stream` the answer streams as Server-Sent Events ' +
          "(`message`: the visitor's message as stored; `delta`: {text} as the model writes; `answer`: the answer with its " +
          'citations; `done`: {handoffRequested, answered}); otherwise 201 once the answer is written. Limited per visitor, ' +
          "client address and help center, and by the help center's AI tokens of the day (429 rate_limited with retry-after).",
        params: ConversationParamsSchema,
        body: SendMessageBodySchema,
        security: VISITOR,
        response: { 201: AskAnswerSchema, ...messengerErrorResponses([400, 403, 404, 429]) },
      },
    },
    async (request, reply) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      await withRetryAfter(reply, () =>
        admitMessage({ ...deps, attempts: deps.limits.attempts }, helpCenter, visitor, {
          conversationId: request.params.conversationId,
          address: request.ip,
        }),
      );
      const { conversationId } = request.params;
      if ((request.headers.accept ?? '').includes('text/event-stream')) {
        return streamAnswer(deps, reply, { helpCenter, visitor, conversationId, content: request.body.content });
      }
      const events: AskEvent[] = [];
      await ask(deps, helpCenter, visitor, conversationId, request.body.content, (event) => events.push(event));
      return reply.code(201).send(answerOf(events));
    },
  );
}

/** The JSON answer of a question asked without a stream. */
function answerOf(events: AskEvent[]) {
  let message: Extract<AskEvent, { event: 'message' }>['data']['message'] | undefined;
  let answer: typeof message | null = null;
  let done: Extract<AskEvent, { event: 'done' }>['data'] | undefined;
  for (const event of events) {
    if (event.event === 'message') {
      message = event.data.message;
    } else if (event.event === 'answer') {
      answer = event.data.message;
    } else if (event.event === 'done') {
      done = event.data;
    }
  }
  if (!message || !done?.conversation) {
    throw new Error('the visitor message was not written');
  }
  return { message, answer, handoffRequested: done.handoffRequested, conversation: done.conversation };
}

/**
 * The answer as Server-Sent Events. The stream starts only once the message is written (a refusal
 * before is an ordinary error answer); a visitor who goes away stops the stream, not the run.
 */
async function streamAnswer(
  deps: AppDeps,
  reply: FastifyReply,
  input: { helpCenter: MessengerHelpCenter; visitor: Visitor; conversationId: string; content: string },
): Promise<void> {
  let sequence = 0;
  let response: ReturnType<typeof startEventStream> | null = null;
  const write = (event: AskEvent) => {
    response ??= startEventStream(reply);
    if (!response.destroyed && !response.writableEnded) {
      response.write(eventFrame(String(++sequence), event.event, JSON.stringify(event.data)));
    }
  };
  try {
    await ask(deps, input.helpCenter, input.visitor, input.conversationId, input.content, write);
  } catch (error) {
    if (!response) {
      // Nothing was sent yet: the area's error answer.
      throw error;
    }
    deps.log.error({ err: error }, 'messenger: answering a visitor failed');
    write({ event: 'done', data: { handoffRequested: true, answered: false, conversation: null } });
  } finally {
    const stream = response as ReturnType<typeof startEventStream> | null;
    if (stream && !stream.writableEnded) {
      stream.end();
    }
  }
}
