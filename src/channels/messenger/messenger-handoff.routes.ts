import type { AppDeps } from '../../deps.js';
import { startEventStream } from '../../http/sse.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import { messengerErrorResponses, RateLimited } from './messenger.errors.js';
import { ConversationAnswerSchema, ConversationParamsSchema, HandoffBodySchema } from './messenger-conversation.schemas.js';
import { conversationWithTicket, getConversation, requestPerson, visitorTyping } from './messenger-conversation.service.js';
import type { MessengerLiveHub } from './messenger-live.hub.js';
import { visitorOf } from './messenger-request.js';

const tags = ['messenger'];
const PUBLIC = { public: true };
const VISITOR: Record<string, string[]>[] = [{ visitorToken: [] }];

/** One conversation, handing it to a person, and its live messages once a person has it. */
export function registerHandoffRoutes(app: TypeBoxApp, deps: AppDeps, live: MessengerLiveHub): void {
  app.get(
    '/:slug/api/conversations/:conversationId',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.get',
        tags,
        summary: "One of the visitor's conversations, with its handoff to a person when it has one",
        params: ConversationParamsSchema,
        security: VISITOR,
        response: { 200: ConversationAnswerSchema, ...messengerErrorResponses([404]) },
      },
    },
    async (request) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      return { conversation: await getConversation(deps, helpCenter, visitor, request.params.conversationId) };
    },
  );

  app.post(
    '/:slug/api/conversations/:conversationId/handoff',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.handoff',
        tags,
        summary:
          '"Talk to a person": the conversation becomes a chat ticket for the widget\'s handoff team, routed as any ticket, ' +
          'with the conversation so far as its first comments (201). Asked again, it answers the same handoff (200), ' +
          'and an `email` replaces the address for replies. 404 when the widget names no handoff team.',
        params: ConversationParamsSchema,
        body: HandoffBodySchema,
        security: VISITOR,
        response: {
          200: ConversationAnswerSchema,
          201: ConversationAnswerSchema,
          ...messengerErrorResponses([400, 403, 404]),
        },
      },
    },
    async (request, reply) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      const { conversation, created } = await requestPerson(
        deps,
        helpCenter,
        visitor,
        request.params.conversationId,
        request.body.email,
      );
      return reply.code(created ? 201 : 200).send({ conversation });
    },
  );

  app.post(
    '/:slug/api/conversations/:conversationId/typing',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.typing',
        tags,
        summary:
          'The visitor is typing: the person answering sees it in the console (a conversation still with the assistant ' +
          'ignores it). Send it while the visitor types, every few seconds at most.',
        params: ConversationParamsSchema,
        security: VISITOR,
        response: { 204: { type: 'null', description: 'Taken' }, ...messengerErrorResponses([404]) },
      },
    },
    async (request, reply) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      await visitorTyping(deps, helpCenter, visitor, request.params.conversationId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/:slug/api/conversations/:conversationId/events',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.conversations.events',
        tags,
        summary:
          "The conversation's live messages, as Server-Sent Events: `message` {message} for each new message of a " +
          "handed-off conversation (a person's reply, or the visitor's own from another tab; the same id again replaces " +
          'it), `conversation` {conversation} when the handoff changes (made, closed, reopened). Nothing is replayed: ' +
          'read the messages once the stream sends its first comment, and again after a reconnect.',
        params: ConversationParamsSchema,
        security: VISITOR,
        produces: ['text/event-stream'],
        response: { ...messengerErrorResponses([404, 429]) },
      },
    },
    async (request, reply) => {
      const { helpCenter, visitor } = await visitorOf(deps, request);
      const { conversationId } = request.params;
      const { conversation, ticketId } = await conversationWithTicket(deps, helpCenter, visitor, conversationId);
      if (!live.hasRoom()) {
        throw new RateLimited('Too many open conversations on this server; retry in a moment', 5);
      }
      live.open(startEventStream(reply), {
        organizationId: helpCenter.site.organizationId,
        conversationId: conversation.id,
        ticketId,
        reload: () => getConversation(deps, helpCenter, visitor, conversationId),
      });
    },
  );
}
