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
import {
  CreateTicketSchema,
  ListTicketsQuerySchema,
  TeamQuerySchema,
  TicketIdParamsSchema,
  TicketOptionSchema,
  TicketSchema,
  TicketStatusParamsSchema,
  UpdateTicketSchema,
  UpdateTicketStatusSchema,
} from './ticket.schemas.js';
import {
  deleteTicket,
  getTicket,
  listTeamTicketOptions,
  listVisibleTickets,
  updateTicketFields,
  updateTicketStatus,
} from './ticket.service.js';
import { createTicket } from './ticket-create.service.js';

const tags = ['tickets'];

export function ticketRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.post(
      '/tickets',
      {
        schema: {
          operationId: 'platform.tickets.create',
          tags,
          summary: 'Create a ticket; it gets the next number of its team (WED-5) and its requestor a contact',
          body: CreateTicketSchema,
          response: { 201: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await createTicket(deps, request.principal, request.body))),
    );

    app.get(
      '/tickets',
      {
        schema: {
          operationId: 'platform.tickets.list',
          tags,
          summary:
            'Tickets, filtered and sorted (newest first by default): by 0-based page, or by cursor (the nextCursor of the page before, for the same filters and sort)',
          querystring: ListTicketsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(TicketSchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => {
        const page = await listVisibleTickets(deps.db, request.principal, request.query, deps.clock.now());
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    for (const [path, kind, operationId] of [
      ['/tickets/statuses', 'status', 'platform.tickets.statuses'],
      ['/tickets/priorities', 'priority', 'platform.tickets.priorities'],
    ] as const) {
      app.get(
        path,
        {
          schema: {
            operationId,
            tags,
            summary: `The ${kind === 'status' ? 'statuses' : 'priorities'} a team's tickets can take`,
            querystring: TeamQuerySchema,
            response: { 200: PlatformEnvelopeSchema(Type.Array(TicketOptionSchema)), ...platformErrorResponses([400, 404]) },
          },
        },
        async (request) => ok(await listTeamTicketOptions(deps, request.principal, request.query.teamId, kind)),
      );
    }

    app.patch(
      '/tickets/statuses/:id',
      {
        schema: {
          operationId: 'platform.tickets.statuses.update',
          summary: 'Rename a status, or set whether it pauses SLA clocks',
          description:
            "The team's admins and managers only. With `pausesSla`, the SLA targets of a ticket in this status stop " +
            '(consumed time kept) and run again when it leaves it; On hold pauses them by default. Tickets already in ' +
            'the status pause or resume at once.',
          tags,
          params: TicketStatusParamsSchema,
          body: UpdateTicketStatusSchema,
          response: { 200: PlatformEnvelopeSchema(TicketOptionSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await updateTicketStatus(deps, request.principal, request.params.id, request.body)),
    );

    app.get(
      '/tickets/:id',
      {
        schema: {
          operationId: 'platform.tickets.get',
          summary: 'One ticket, by id or by ticketIdentifier (BILL-1, any case)',
          tags,
          params: TicketIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getTicket(deps.db, request.principal, request.params.id, deps.clock.now())),
    );

    app.patch(
      '/tickets/:id',
      {
        schema: {
          operationId: 'platform.tickets.update',
          summary: 'Change the fields sent of a ticket',
          tags,
          params: TicketIdParamsSchema,
          body: UpdateTicketSchema,
          response: { 200: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await updateTicketFields(deps, request.principal, request.params.id, request.body)),
    );

    app.delete(
      '/tickets/:id',
      {
        schema: {
          operationId: 'platform.tickets.delete',
          tags,
          summary: 'Soft-delete a ticket: it answers 404 afterwards',
          params: TicketIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(TicketSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await deleteTicket(deps, request.principal, request.params.id)),
    );
  };
}
