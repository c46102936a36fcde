import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { platformErrorResponses } from '../platform.envelope.js';
import { DeletionResultSchema, deletionResult } from './account.schemas.js';
import {
  AttributeValueIdParamsSchema,
  AttributeValueSchema,
  CreateAttributeValueSchema,
  ListAttributeValuesQuerySchema,
  UpdateAttributeValueSchema,
} from './account-attribute.schemas.js';
import { createValue, deleteValue, listValues, updateValue } from './account-attribute.service.js';

const tags = ['accounts'];

/** Values of account attributes (statuses, note types, …); answered without an envelope, as upstream. */
export function accountAttributeRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/accounts/attributes',
      {
        schema: {
          operationId: 'platform.accounts.attributes.list',
          tags,
          summary: "The live values of one attribute; an organization's defaults are created on first use",
          description:
            "All live values of the attribute, in creation order, in one answer: an attribute's values are a short " +
            'vocabulary its admins keep (statuses, note types, …), so the list is not paged.',
          querystring: ListAttributeValuesQuerySchema,
          response: { 200: Type.Array(AttributeValueSchema), ...platformErrorResponses([400]) },
        },
      },
      async (request) => listValues(deps, request.principal, request.query.attribute),
    );

    app.post(
      '/accounts/attributes',
      {
        schema: {
          operationId: 'platform.accounts.attributes.create',
          tags,
          summary: 'Add a value to an attribute (admins); isDefault moves the default to it',
          body: CreateAttributeValueSchema,
          response: { 201: AttributeValueSchema, ...platformErrorResponses([400, 403, 409]) },
        },
      },
      async (request, reply) => reply.code(201).send(await createValue(deps, request.principal, request.body)),
    );

    app.put(
      '/accounts/attributes/:id',
      {
        schema: {
          operationId: 'platform.accounts.attributes.update',
          summary: 'Change a value (admins): its name, icon, color, or whether it is the default',
          tags,
          params: AttributeValueIdParamsSchema,
          body: UpdateAttributeValueSchema,
          response: { 200: AttributeValueSchema, ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => updateValue(deps, request.principal, request.params.id, request.body),
    );

    app.delete(
      '/accounts/attributes/:id',
      {
        schema: {
          operationId: 'platform.accounts.attributes.delete',
          tags,
          summary: 'Soft-delete a value (admins); records using it keep showing it; the default cannot be deleted',
          params: AttributeValueIdParamsSchema,
          response: { 200: DeletionResultSchema, ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => {
        await deleteValue(deps, request.principal, request.params.id);
        return deletionResult('Account attribute value deleted successfully');
      },
    );
  };
}
