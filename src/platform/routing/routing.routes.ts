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
import { TicketIdParamsSchema } from '../tickets/ticket.schemas.js';
import {
  ListRoutingHistoryQuerySchema,
  RerouteResultSchema,
  RoutingDecisionSchema,
  RoutingSimulationSchema,
  RoutingTeamParamsSchema,
  SimulateRoutingSchema,
} from './routing.schemas.js';
import { listRoutingHistory, rerouteTicket, simulateRouting } from './routing.service.js';

const tags = ['routing'];

/** Re-routing a ticket, the explain (simulate) endpoint and a ticket's routing history. */
export function routingRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.post(
      '/tickets/:id/route',
      {
        schema: {
          operationId: 'platform.routing.reroute',
          tags,
          summary: 'Route a ticket again: team by rules, then agent by the chosen team',
          description:
            "Releases the current agent, follows the routing rules from the ticket's team (a move gives the ticket the " +
            "next number of its new team) and assigns by that team's configuration. A closed ticket answers 409.",
          params: TicketIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(RerouteResultSchema), ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request) => ok(await rerouteTicket(deps, request.principal, request.params.id)),
    );

    app.post(
      '/teams/:teamId/routing/simulate',
      {
        schema: {
          operationId: 'platform.routing.simulate',
          tags,
          summary: 'Explain what routing would do with a ticket entering this team; changes nothing',
          description:
            "Answers the rule that matched (or none), each of the starting team's rules with the outcome of each " +
            'condition, each hop, the team and agent that would be chosen, and for every member why they are or are ' +
            'not eligible. `at` reads hours at another instant; status and capacity are current.',
          params: RoutingTeamParamsSchema,
          body: SimulateRoutingSchema,
          response: { 200: PlatformEnvelopeSchema(RoutingSimulationSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await simulateRouting(deps, request.principal, request.params.teamId, request.body)),
    );

    app.get(
      '/tickets/:id/routing-history',
      {
        schema: {
          operationId: 'platform.routing.history',
          tags,
          summary: "A ticket's routing decisions, oldest first, with their reasons",
          description: 'Oldest first, then by id, `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
          params: TicketIdParamsSchema,
          querystring: ListRoutingHistoryQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(RoutingDecisionSchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => {
        const page = await listRoutingHistory(deps.db, request.principal, request.params.id, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );
  };
}
