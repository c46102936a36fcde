import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { HelpCenterEnvelopeSchema, helpCenterEnvelope, helpCenterErrorResponses } from '../help-center.envelope.js';
import {
  CollectionIdParamsSchema,
  CollectionSchema,
  CreateCollectionSchema,
  ListCollectionsQuerySchema,
  UpdateCollectionSchema,
} from './collection.schemas.js';
import {
  createCollection,
  getCollection,
  listOrganizationCollections,
  removeCollection,
  updateCollectionDetails,
} from './collection.service.js';

const tags = ['collections'];

export function collectionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/collections',
      {
        schema: {
          operationId: 'helpCenter.collections.create',
          tags,
          summary: 'Create a collection, at the top of a help center or under a parent collection of it',
          body: CreateCollectionSchema,
          response: { 201: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(helpCenterEnvelope(await createCollection(deps, request.principal, request.body), 'Collection created')),
    );

    app.get(
      '/collections',
      {
        schema: {
          operationId: 'helpCenter.collections.list',
          tags,
          summary: "The organization's collections, by parent then order",
          description: 'Top-level collections first, then the children of each listed collection in turn; siblings by `order`.',
          querystring: ListCollectionsQuerySchema,
          response: { 200: HelpCenterEnvelopeSchema(Type.Array(CollectionSchema)), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await listOrganizationCollections(deps.db, request.principal, request.query), 'Collections retrieved'),
    );

    app.get(
      '/collections/:id',
      {
        schema: {
          operationId: 'helpCenter.collections.get',
          summary: 'One collection',
          tags,
          params: CollectionIdParamsSchema,
          response: { 200: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await getCollection(deps.db, request.principal, request.params.id), 'Collection retrieved'),
    );

    app.patch(
      '/collections/:id',
      {
        schema: {
          operationId: 'helpCenter.collections.update',
          tags,
          summary: 'Update, reorder or move a collection (no cycles; at most 5 levels deep)',
          params: CollectionIdParamsSchema,
          body: UpdateCollectionSchema,
          response: { 200: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(
          await updateCollectionDetails(deps, request.principal, request.params.id, request.body),
          'Collection updated',
        ),
    );

    app.delete(
      '/collections/:id',
      {
        schema: {
          operationId: 'helpCenter.collections.delete',
          tags,
          summary: 'Delete an empty collection; 409 while it holds sub-collections or articles',
          params: CollectionIdParamsSchema,
          response: { 200: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 404, 409]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await removeCollection(deps, request.principal, request.params.id), 'Collection deleted'),
    );
  };
}
