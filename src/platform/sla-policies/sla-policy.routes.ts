import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  CreateSlaPolicySchema,
  ReorderSlaPoliciesSchema,
  SlaPolicyParamsSchema,
  SlaPolicySchema,
  UpdateSlaPolicySchema,
} from './sla-policy.schemas.js';
import { createPolicy, deletePolicy, getPolicy, listPolicies, reorderPolicies, updatePolicy } from './sla-policy.service.js';

const TAGS = ['sla-policies'];

/** The organization's ordered SLA policies: the first matching one sets a ticket's targets. Admins write them. */
export function slaPolicyRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/sla-policies',
      {
        schema: {
          operationId: 'platform.slaPolicies.list',
          tags: TAGS,
          summary: 'List SLA policies',
          description: 'Every policy of the organization in evaluation order, in one answer (configuration, not paged).',
          response: { 200: PlatformEnvelopeSchema(Type.Array(SlaPolicySchema)), ...platformErrorResponses([400]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await listPolicies(deps.db, request.principal)),
    );

    app.post(
      '/sla-policies',
      {
        schema: {
          operationId: 'platform.slaPolicies.create',
          tags: TAGS,
          summary: 'Create an SLA policy',
          description: 'Organization admins only.',
          body: CreateSlaPolicySchema,
          response: { 201: PlatformEnvelopeSchema(SlaPolicySchema), ...platformErrorResponses([400, 403, 409]) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(platformEnvelope(deps.clock, await createPolicy(deps, request.principal, request.body))),
    );

    app.post(
      '/sla-policies/reorder',
      {
        schema: {
          operationId: 'platform.slaPolicies.reorder',
          tags: TAGS,
          summary: 'Reorder SLA policies',
          description:
            'Gives the policies the order of `policyIds`, which must name every policy of the organization exactly once ' +
            '(else 400 naming the missing, unknown and repeated ids): position 0, 1, 2… in one transaction. ' +
            'Answers the policies in their new order.',
          body: ReorderSlaPoliciesSchema,
          response: { 200: PlatformEnvelopeSchema(Type.Array(SlaPolicySchema)), ...platformErrorResponses([400, 403]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await reorderPolicies(deps, request.principal, request.body)),
    );

    app.get(
      '/sla-policies/:id',
      {
        schema: {
          operationId: 'platform.slaPolicies.get',
          tags: TAGS,
          summary: 'Get an SLA policy',
          params: SlaPolicyParamsSchema,
          response: { 200: PlatformEnvelopeSchema(SlaPolicySchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await getPolicy(deps.db, request.principal, request.params.id)),
    );

    app.patch(
      '/sla-policies/:id',
      {
        schema: {
          operationId: 'platform.slaPolicies.update',
          tags: TAGS,
          summary: 'Update an SLA policy',
          description: 'Changes only the fields sent. Organization admins only.',
          params: SlaPolicyParamsSchema,
          body: UpdateSlaPolicySchema,
          response: { 200: PlatformEnvelopeSchema(SlaPolicySchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await updatePolicy(deps, request.principal, request.params.id, request.body)),
    );

    app.delete(
      '/sla-policies/:id',
      {
        schema: {
          operationId: 'platform.slaPolicies.delete',
          tags: TAGS,
          summary: 'Delete an SLA policy',
          description: 'Answers with the deleted policy. Tickets it governed keep their targets and SLA history.',
          params: SlaPolicyParamsSchema,
          response: { 200: PlatformEnvelopeSchema(SlaPolicySchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await deletePolicy(deps, request.principal, request.params.id)),
    );
  };
}
