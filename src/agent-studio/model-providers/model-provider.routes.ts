import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { agentStudioErrorResponses } from '../agent-studio.errors.js';
import { DeletedSchema } from '../agents/agent.schemas.js';
import { modelAccessOf } from './model-client.js';
import {
  CreateModelProviderSchema,
  ListModelProvidersQuerySchema,
  ModelProviderParamsSchema,
  ModelProviderSchema,
  ModelProviderTestResultSchema,
  TestModelProviderSchema,
  UpdateModelProviderSchema,
} from './model-provider.schemas.js';
import {
  createModelProvider,
  getModelProvider,
  listOrganizationModelProviders,
  removeModelProvider,
  testModelProvider,
  updateModelProviderDetails,
} from './model-provider.service.js';

const tags = ['model providers'];
const PROVIDER = '/model-providers/:provider_id';

export function modelProviderRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const context = { db: deps.db, clock: deps.clock, ids: deps.ids, access: modelAccessOf(deps) };

    app.post(
      '/model-providers',
      {
        schema: {
          operationId: 'agentStudio.modelProviders.create',
          tags,
          summary: 'Add a model provider (organization admins); the API key is stored encrypted and never returned',
          body: CreateModelProviderSchema,
          response: { 200: ModelProviderSchema, ...agentStudioErrorResponses([403, 409]) },
        },
      },
      async (request) => createModelProvider(context, request.principal, request.body),
    );

    app.get(
      '/model-providers',
      {
        schema: {
          operationId: 'agentStudio.modelProviders.list',
          tags,
          summary: "A page of the organization's model providers, oldest first",
          querystring: ListModelProvidersQuerySchema,
          response: {
            200: PagedArraySchema(ModelProviderSchema, 'Oldest first (created_at, then id)'),
            ...agentStudioErrorResponses([]),
          },
        },
      },
      async (request, reply) => sendPage(reply, await listOrganizationModelProviders(deps.db, request.principal, request.query)),
    );

    app.get(
      PROVIDER,
      {
        schema: {
          operationId: 'agentStudio.modelProviders.get',
          tags,
          summary: 'One model provider of the organization',
          params: ModelProviderParamsSchema,
          response: { 200: ModelProviderSchema, ...agentStudioErrorResponses([404]) },
        },
      },
      async (request) => getModelProvider(deps.db, request.principal, request.params.provider_id),
    );

    app.patch(
      PROVIDER,
      {
        schema: {
          operationId: 'agentStudio.modelProviders.update',
          tags,
          summary: 'Change a model provider (organization admins); fields left out stay, api_key null removes the key',
          params: ModelProviderParamsSchema,
          body: UpdateModelProviderSchema,
          response: { 200: ModelProviderSchema, ...agentStudioErrorResponses([403, 404, 409]) },
        },
      },
      async (request) => updateModelProviderDetails(context, request.principal, request.params.provider_id, request.body),
    );

    app.delete(
      PROVIDER,
      {
        schema: {
          operationId: 'agentStudio.modelProviders.delete',
          tags,
          summary: 'Remove a model provider (organization admins); agents naming it stop running until they name another',
          params: ModelProviderParamsSchema,
          response: { 200: DeletedSchema, ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request) => removeModelProvider(context, request.principal, request.params.provider_id),
    );

    app.post(
      `${PROVIDER}/test`,
      {
        schema: {
          operationId: 'agentStudio.modelProviders.test',
          tags,
          summary: 'Make one tiny completion (organization admins): the latency, or the provider’s error',
          params: ModelProviderParamsSchema,
          body: TestModelProviderSchema,
          response: { 200: ModelProviderTestResultSchema, ...agentStudioErrorResponses([403, 404]) },
        },
      },
      async (request) => testModelProvider(context, request.principal, request.params.provider_id, request.body),
    );
  };
}
