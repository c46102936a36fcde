import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { sessionTokenOf } from '../../http/session-auth.js';
import { startEventStream } from '../../http/sse.js';
import { AppError } from '../../lib/errors.js';
import { authenticateSession } from '../auth/session.service.js';
import { PlatformListEnvelopeSchema, platformErrorResponses, platformListEnvelope } from '../platform.envelope.js';
import { EventSchema, ListEventsQuerySchema, StreamEventsHeadersSchema, StreamEventsQuerySchema } from './event.schemas.js';
import { listOrganizationEvents, planEventStream } from './event.service.js';
import { createEventStreamHub, type EventStreamCaller } from './event-stream.hub.js';

const STREAM_DESCRIPTION = [
  'Server-Sent Events (`text/event-stream`) of the events the caller may see, as they commit, from every server process.',
  'Each event is `id:` (the event id), `event:` (its type) and `data:` (the event exactly as `GET /v1/events` lists it).',
  'The stream opens with `event: ready`, whose id is where it starts; a comment (`: heartbeat`) comes every',
  'EVENT_STREAM_HEARTBEAT_MS (15 s by default). To resume without a gap, send the last id received as the',
  '`Last-Event-ID` header (an EventSource does so when it reconnects) or as `lastEventId`. When retention has',
  'deleted events after that id, the stream first sends `event: reset`: reload what you show, then follow it.',
  'Filter with `type` as in `GET /v1/events`. Members see what the ticket lists show them; admins see everything.',
].join(' ');

/** The event log, read only (events are written by the changes themselves): listed, or followed live. */
export function eventRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const hub = createEventStreamHub({
      ...deps,
      signal: deps.eventSignal,
      verifySession: (token) => authenticateSession(deps, token, { touch: false }),
    });
    // Before the server stops accepting: open streams would otherwise hold `close()` until their clients leave.
    app.addHook('preClose', () => hub.close());

    app.get(
      '/events',
      {
        schema: {
          operationId: 'platform.events.list',
          tags: ['events'],
          summary: "The organization's event log, newest first; organization admins only",
          description:
            'Every change writes an event in its own transaction: `{id, type, organizationId, occurredAt, actor, data}`, ' +
            '`data` being the resource as the API answered it. Ids increase in commit order. Filter by `type` (repeat ' +
            'it), `occurredAfter`, `occurredBefore`; `order=asc` for oldest first; `cursor` takes the `nextCursor` of ' +
            'the page before. Events are kept for EVENT_RETENTION_DAYS (30 by default).',
          querystring: ListEventsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(EventSchema)), ...platformErrorResponses([400, 403]) },
        },
      },
      async (request) => {
        const page = await listOrganizationEvents(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.get(
      '/events/stream',
      {
        // A HEAD would hold a stream open with nothing to send.
        exposeHeadRoute: false,
        schema: {
          operationId: 'platform.events.stream',
          tags: ['events'],
          summary: 'Follow the event log live (Server-Sent Events); any user',
          description: STREAM_DESCRIPTION,
          querystring: StreamEventsQuerySchema,
          headers: StreamEventsHeadersSchema,
          response: {
            200: {
              description: 'An open event stream',
              content: {
                'text/event-stream': {
                  schema: Type.String({
                    description:
                      'Blocks of `id:`, `event:` and `data:` lines (`data`: one JSON line), each ended by a blank line',
                  }),
                },
              },
            },
            ...platformErrorResponses([400, 503]),
          },
        },
      },
      async (request, reply) => {
        if (!hub.hasRoom()) {
          reply.header('retry-after', '5');
          throw new AppError({ code: 'UNAVAILABLE', message: 'This server holds as many event streams as it may; retry later' });
        }
        const plan = await planEventStream(deps.db, request.principal, request.query, request.headers['last-event-id']);
        hub.open(startEventStream(reply), plan, { userId: request.principal.userId, credential: credentialOf(request) });
      },
    );
  };
}

/** What the caller authenticated with (the `/v1` hook judged a request with both by its key). */
function credentialOf(request: FastifyRequest): EventStreamCaller['credential'] {
  const header = request.headers['x-api-key'];
  const apiKey = (Array.isArray(header) ? header[0] : header)?.trim();
  const sessionToken = request.principal.sessionId ? sessionTokenOf(request) : undefined;
  return !apiKey && sessionToken ? { sessionToken } : { apiKey: apiKey ?? '' };
}
