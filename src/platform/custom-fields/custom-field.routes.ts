import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { CustomFieldErrorSchema, platformErrorResponses } from '../platform.envelope.js';
import {
  CustomFieldEnvelopeSchema,
  CustomFieldListEnvelopeSchema,
  customFieldEnvelope,
  customFieldListEnvelope,
} from './custom-field.envelope.js';
import {
  BulkUpdateCustomFieldsSchema,
  CreateCustomFieldSchema,
  CustomFieldParamsSchema,
  CustomFieldSchema,
  ListCustomFieldsQuerySchema,
  SearchCustomFieldsQuerySchema,
} from './custom-field.schemas.js';
import {
  bulkUpdateCustomFields,
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  searchCustomFields,
} from './custom-field.service.js';

const tags = ['custom fields'];
/** Every error of these routes, validation and 401 included, is `{message, statusCode, timestamp}`. */
const config = { errorShape: 'customField' as const };
const errors = (statuses: number[]) => platformErrorResponses(statuses, CustomFieldErrorSchema);
const FieldEnvelopeSchema = CustomFieldEnvelopeSchema(CustomFieldSchema);
const FieldListEnvelopeSchema = CustomFieldEnvelopeSchema(Type.Array(CustomFieldSchema));
const FieldPageEnvelopeSchema = CustomFieldListEnvelopeSchema(Type.Array(CustomFieldSchema));
const PAGING =
  'Ordered by creation time, then uid. Page by `page` (0-based) or by `cursor` (the `nextCursor` of the page before), not both.';

/** Custom field definitions of tickets, accounts, custom objects and customer contacts. */
export function customFieldRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => customFieldEnvelope(deps.clock, data);
  const list = <T>(page: { items: T; nextCursor: string | null }) =>
    customFieldListEnvelope(deps.clock, page.items, page.nextCursor);
  return async (app) => {
    app.post(
      '/custom-field',
      {
        config,
        schema: {
          operationId: 'platform.customFields.create',
          tags,
          summary: 'Create a custom field (teamId makes it team-specific); it starts at version 1',
          description:
            'Organization admins create fields; a team-specific one may also be created by a manager of that team. ' +
            'The slug is derived from the name: unique per organization and source, suffixed -2, -3… on a clash. ' +
            'Concurrent creates with one name each get their own slug; a create never fails on the slug.',
          body: CreateCustomFieldSchema,
          response: { 201: FieldEnvelopeSchema, ...errors([400, 403, 404]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await createCustomField(deps, request.principal, request.body))),
    );

    app.get(
      '/custom-field',
      {
        config,
        schema: {
          operationId: 'platform.customFields.list',
          tags,
          summary: 'List custom fields, oldest first; page starts at 0',
          description:
            'Without teamId: organization-wide fields and those of the caller’s teams. With teamId (the caller must ' +
            'be a member): that team’s fields and the organization-wide ones, or only the team’s with onlyTeamFields=true. ' +
            PAGING,
          querystring: ListCustomFieldsQuerySchema,
          response: { 200: FieldPageEnvelopeSchema, ...errors([400, 404]) },
        },
      },
      async (request) => list(await listCustomFields(deps.db, request.principal, request.query)),
    );

    app.get(
      '/custom-field/search',
      {
        config,
        schema: {
          operationId: 'platform.customFields.search',
          tags,
          summary: 'Search custom fields by part of the name, any case; same scope and paging as the list',
          description: PAGING,
          querystring: SearchCustomFieldsQuerySchema,
          response: { 200: FieldPageEnvelopeSchema, ...errors([400, 404]) },
        },
      },
      async (request) => list(await searchCustomFields(deps.db, request.principal, request.query)),
    );

    app.patch(
      '/custom-field',
      {
        config,
        schema: {
          operationId: 'platform.customFields.bulkUpdate',
          tags,
          summary: 'Update custom fields in bulk: all or nothing, each entry at its current version',
          description:
            'Each entry names fieldId, the version it is based on and the updates. A stale version anywhere answers 409 ' +
            'naming each stale fieldId with its current version, and nothing is written. Each updated field goes up one version.',
          body: BulkUpdateCustomFieldsSchema,
          response: { 200: FieldListEnvelopeSchema, ...errors([400, 403, 404, 409]) },
        },
      },
      async (request) => ok(await bulkUpdateCustomFields(deps, request.principal, request.body)),
    );

    app.get(
      '/custom-field/:uid',
      {
        config,
        schema: {
          operationId: 'platform.customFields.get',
          summary: 'One custom field',
          tags,
          params: CustomFieldParamsSchema,
          response: { 200: FieldEnvelopeSchema, ...errors([400, 404]) },
        },
      },
      async (request) => ok(await getCustomField(deps.db, request.principal, request.params.uid)),
    );

    app.delete(
      '/custom-field/:uid',
      {
        config,
        schema: {
          operationId: 'platform.customFields.delete',
          tags,
          summary: 'Delete a custom field (soft): it leaves every read, its slug stays reserved',
          params: CustomFieldParamsSchema,
          response: { 200: FieldEnvelopeSchema, ...errors([400, 403, 404]) },
        },
      },
      async (request) => ok(await deleteCustomField(deps, request.principal, request.params.uid)),
    );
  };
}
