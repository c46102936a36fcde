import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import {
  HelpCenterEnvelopeSchema,
  HelpCenterListEnvelopeSchema,
  helpCenterEnvelope,
  helpCenterErrorResponses,
  helpCenterListEnvelope,
} from '../help-center.envelope.js';
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
          summary: 'Create a collection (admins), at the top of a help center or under a parent collection of it',
          body: CreateCollectionSchema,
          response: { 201: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 403, 404]) },
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
          summary: "A page of the organization's collection trees, by parent then order",
          description:
            'Pages are over top-level collections (by help center id, which begins with its creation time, so help centers ' +
            'oldest first; then `order`), and `limit` counts them: each comes ' +
            'with its whole subtree, so a page is complete trees. Within a page and help center, the top-level collections ' +
            'come first, then the children of each listed collection in turn; siblings by `order`. With `parentId`, a page ' +
            "of that collection's children (or, `null`, of the top-level collections) alone, by `order`.",
          querystring: ListCollectionsQuerySchema,
          response: {
            200: HelpCenterListEnvelopeSchema(CollectionSchema, 'Every collection after its parent; siblings by `order`'),
            ...helpCenterErrorResponses([400, 404]),
          },
        },
      },
      async (request) =>
        helpCenterListEnvelope(
          await listOrganizationCollections(deps.db, request.principal, request.query),
          'Collections retrieved',
        ),
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
          summary: 'Update, reorder or move a collection (admins; no cycles, at most 5 levels deep)',
          params: CollectionIdParamsSchema,
          body: UpdateCollectionSchema,
          response: { 200: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 403, 404]) },
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
          summary: 'Delete an empty collection (admins); 409 while it holds sub-collections or articles',
          params: CollectionIdParamsSchema,
          response: { 200: HelpCenterEnvelopeSchema(CollectionSchema), ...helpCenterErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await removeCollection(deps, request.principal, request.params.id), 'Collection deleted'),
    );
  };
}
