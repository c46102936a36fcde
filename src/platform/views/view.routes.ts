import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import { TicketSchema } from '../tickets/ticket.schemas.js';
import {
  CreateViewSchema,
  ListViewsQuerySchema,
  UpdateViewSchema,
  ViewParamsSchema,
  ViewSchema,
  ViewTicketsQuerySchema,
} from './view.schemas.js';
import { changeView, createView, getView, listViewTickets, listVisibleViews, removeView } from './view.service.js';

const tags = ['views'];

/** Saved views: named filters and sorts of the ticket list, with their counts; built-in ones first. */
export function viewRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.post(
      '/views',
      {
        schema: {
          operationId: 'platform.views.create',
          tags,
          summary: 'Save a view: personal, or shared with a team (its admins and organization admins only)',
          body: CreateViewSchema,
          response: { 201: PlatformEnvelopeSchema(ViewSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await createView(deps, request.principal, request.body))),
    );

    app.get(
      '/views',
      {
        schema: {
          operationId: 'platform.views.list',
          tags,
          summary: "The built-in views, then the caller's own and those shared with their teams, by name, with their counts",
          querystring: ListViewsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(ViewSchema)), ...platformErrorResponses([400]) },
        },
      },
      async (request) => {
        const page = await listVisibleViews(deps.db, request.principal, request.query, deps.clock.now());
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.get(
      '/views/:viewId',
      {
        schema: {
          operationId: 'platform.views.get',
          tags,
          summary: 'One view, with its count',
          params: ViewParamsSchema,
          response: { 200: PlatformEnvelopeSchema(ViewSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getView(deps.db, request.principal, request.params.viewId, deps.clock.now())),
    );

    app.get(
      '/views/:viewId/tickets',
      {
        schema: {
          operationId: 'platform.views.tickets',
          tags: ['views', 'tickets'],
          summary: 'The tickets a view selects, as GET /v1/tickets answers its filters and sort, by cursor',
          description:
            'A view whose filters name something gone since (an archived team, a deleted user) answers 409 saying what.',
          params: ViewParamsSchema,
          querystring: ViewTicketsQuerySchema,
          response: {
            200: PlatformListEnvelopeSchema(Type.Array(TicketSchema)),
            ...platformErrorResponses([400, 404, 409]),
          },
        },
      },
      async (request) => {
        const page = await listViewTickets(deps.db, request.principal, request.params.viewId, request.query, deps.clock.now());
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.patch(
      '/views/:viewId',
      {
        schema: {
          operationId: 'platform.views.update',
          tags,
          summary: 'Change the fields sent of a saved view (its owner; for a shared one, an admin); built-in views are read-only',
          params: ViewParamsSchema,
          body: UpdateViewSchema,
          response: { 200: PlatformEnvelopeSchema(ViewSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await changeView(deps, request.principal, request.params.viewId, request.body)),
    );

    app.delete(
      '/views/:viewId',
      {
        schema: {
          operationId: 'platform.views.delete',
          tags,
          summary: 'Delete a saved view (its owner; for a shared one, an admin); answers with the deleted view',
          params: ViewParamsSchema,
          response: { 200: PlatformEnvelopeSchema(ViewSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await removeView(deps, request.principal, request.params.viewId)),
    );
  };
}
