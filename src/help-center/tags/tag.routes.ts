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
  CreateTagSchema,
  ListTagsQuerySchema,
  MergeTagSchema,
  TagIdParamsSchema,
  TagSchema,
  UpdateTagSchema,
} from './tag.schemas.js';
import { createTag, listOrganizationTags, mergeTag, removeTag, renameTag } from './tag.service.js';

const tags = ['tags'];

export function tagRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tags',
      {
        schema: {
          operationId: 'helpCenter.tags.create',
          tags,
          summary: 'Create a tag; names are unique in the organization, case-insensitively',
          body: CreateTagSchema,
          response: { 201: HelpCenterEnvelopeSchema(TagSchema), ...helpCenterErrorResponses([400, 409]) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(helpCenterEnvelope(await createTag(deps, request.principal, request.body), 'Tag created')),
    );

    app.get(
      '/tags',
      {
        schema: {
          operationId: 'helpCenter.tags.list',
          tags,
          summary: "A page of the organization's tags, alphabetically",
          querystring: ListTagsQuerySchema,
          response: {
            200: HelpCenterListEnvelopeSchema(TagSchema, 'Alphabetical, case-insensitively (lowerName, then id)'),
            ...helpCenterErrorResponses([400]),
          },
        },
      },
      async (request) =>
        helpCenterListEnvelope(await listOrganizationTags(deps.db, request.principal, request.query), 'Tags retrieved'),
    );

    app.patch(
      '/tags/:tagId',
      {
        schema: {
          operationId: 'helpCenter.tags.update',
          tags,
          summary: 'Rename a tag',
          params: TagIdParamsSchema,
          body: UpdateTagSchema,
          response: { 200: HelpCenterEnvelopeSchema(TagSchema), ...helpCenterErrorResponses([400, 404, 409]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await renameTag(deps, request.principal, request.params.tagId, request.body), 'Tag updated'),
    );

    app.delete(
      '/tags/:tagId',
      {
        schema: {
          operationId: 'helpCenter.tags.delete',
          tags,
          summary: 'Delete a tag and take it off every article',
          params: TagIdParamsSchema,
          response: { 200: HelpCenterEnvelopeSchema(TagSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) => helpCenterEnvelope(await removeTag(deps, request.principal, request.params.tagId), 'Tag deleted'),
    );

    app.post(
      '/tags/:tagId/merge',
      {
        schema: {
          operationId: 'helpCenter.tags.merge',
          tags,
          summary: 'Merge a tag into another: its articles get the other tag, and it is deleted, in one transaction',
          params: TagIdParamsSchema,
          body: MergeTagSchema,
          response: { 200: HelpCenterEnvelopeSchema(TagSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await mergeTag(deps, request.principal, request.params.tagId, request.body), 'Tags merged'),
    );
  };
}
