import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  CreateRoutingRuleSchema,
  ReorderRoutingRulesSchema,
  RoutingRuleParamsSchema,
  RoutingRuleSchema,
  RoutingRulesParamsSchema,
  UpdateRoutingRuleSchema,
} from './routing-rule.schemas.js';
import { createRule, deleteRule, listRules, reorderRules, updateRule } from './routing-rule.service.js';

/** The ordered rules that send a team's incoming tickets to other teams; the first match wins. */
export function routingRuleRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/teams/:teamId/routing',
      {
        schema: {
          operationId: 'platform.routingRules.list',
          tags: ['teams'],
          summary: "List a team's routing rules",
          description:
            'Every rule of the team in ascending evaluation order, in one answer: routing evaluates them all, and ' +
            "a team's rules are configuration its admins keep, so the list is not paged.",
          params: RoutingRulesParamsSchema,
          response: { 200: PlatformEnvelopeSchema(Type.Array(RoutingRuleSchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await listRules(deps.db, request.principal, request.params.teamId)),
    );

    app.post(
      '/teams/:teamId/routing',
      {
        schema: {
          operationId: 'platform.routingRules.create',
          tags: ['teams'],
          summary: 'Create a routing rule for a team',
          params: RoutingRulesParamsSchema,
          body: CreateRoutingRuleSchema,
          response: { 201: PlatformEnvelopeSchema(RoutingRuleSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request, reply) => {
        const rule = await createRule(deps, request.principal, request.params.teamId, request.body);
        return reply.code(201).send(platformEnvelope(deps.clock, rule));
      },
    );

    app.post(
      '/teams/:teamId/routing/reorder',
      {
        schema: {
          operationId: 'platform.routingRules.reorder',
          tags: ['teams'],
          summary: "Reorder a team's routing rules",
          description:
            "Gives the team's rules the order of `ruleIds`, which must name every rule of the team exactly once " +
            '(else 400 naming the missing, unknown and repeated ids; a rule of another team is unknown): ' +
            'evaluationOrder 0, 1, 2… in that order, all in one transaction, so the order is applied whole or not at all. ' +
            'Concurrent reorders of a team take turns and each applies whole; the last one to run is the order kept. ' +
            "Answers the team's rules in their new order, as the list does.",
          params: RoutingRulesParamsSchema,
          body: ReorderRoutingRulesSchema,
          response: { 200: PlatformEnvelopeSchema(Type.Array(RoutingRuleSchema)), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await reorderRules(deps, request.principal, request.params.teamId, request.body)),
    );

    app.patch(
      '/teams/:teamId/routing/:ruleId',
      {
        schema: {
          operationId: 'platform.routingRules.update',
          tags: ['teams'],
          summary: 'Update a routing rule',
          description: 'Changes only the fields sent.',
          params: RoutingRuleParamsSchema,
          body: UpdateRoutingRuleSchema,
          response: { 200: PlatformEnvelopeSchema(RoutingRuleSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => {
        const { teamId, ruleId } = request.params;
        return platformEnvelope(deps.clock, await updateRule(deps, request.principal, teamId, ruleId, request.body));
      },
    );

    app.delete(
      '/teams/:teamId/routing/:ruleId',
      {
        schema: {
          operationId: 'platform.routingRules.delete',
          tags: ['teams'],
          summary: 'Delete a routing rule',
          description: 'Answers with the deleted rule.',
          params: RoutingRuleParamsSchema,
          response: { 200: PlatformEnvelopeSchema(RoutingRuleSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => {
        const { teamId, ruleId } = request.params;
        return platformEnvelope(deps.clock, await deleteRule(deps, request.principal, teamId, ruleId));
      },
    );
  };
}
