import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  CreateTeamTagSchema,
  TeamEnvelopeSchema,
  TeamTagListSchema,
  TeamTagParamsSchema,
  TeamTagsParamsSchema,
  UpdateTeamTagSchema,
} from './team-tag.schemas.js';
import { createTag, deleteTag, listTags, updateTag } from './team-tag.service.js';

const TagListEnvelopeSchema = TeamEnvelopeSchema(TeamTagListSchema);

/** Tags of a team (`ticket` or `skills`); every operation answers with the team's whole tag list. */
export function teamTagRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    /** `{status, message, timestamp, teamUuid, data}`: the serializer writes fields in schema order. */
    const envelope = <T>(teamUuid: string, data: T) => ({ ...platformEnvelope(deps.clock, data), teamUuid });

    app.post(
      '/teams/:teamUuid/tags',
      {
        schema: {
          operationId: 'platform.teamTags.create',
          tags: ['teams'],
          summary: 'Create a tag for a team',
          description: "Answers with all of the team's tags, oldest first, the new one included.",
          params: TeamTagsParamsSchema,
          body: CreateTeamTagSchema,
          response: { 201: TagListEnvelopeSchema, ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request, reply) => {
        const { teamUuid } = request.params;
        const list = await createTag(deps, request.principal, teamUuid, request.body);
        return reply.code(201).send(envelope(teamUuid, list));
      },
    );

    app.get(
      '/teams/:teamUuid/tags',
      {
        schema: {
          operationId: 'platform.teamTags.list',
          tags: ['teams'],
          summary: "List a team's tags",
          description:
            "All of the team's tags, oldest first, in one answer: a team's tags are a vocabulary its admins keep, " +
            'and every tag operation answers the whole list, so it is not paged.',
          params: TeamTagsParamsSchema,
          response: { 200: TagListEnvelopeSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => envelope(request.params.teamUuid, await listTags(deps.db, request.principal, request.params.teamUuid)),
    );

    app.put(
      '/teams/:teamUuid/tags/:tagUuid',
      {
        schema: {
          operationId: 'platform.teamTags.update',
          tags: ['teams'],
          summary: 'Update a team tag',
          description: "Changes only the fields sent; answers with all of the team's tags.",
          params: TeamTagParamsSchema,
          body: UpdateTeamTagSchema,
          response: { 200: TagListEnvelopeSchema, ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => {
        const { teamUuid, tagUuid } = request.params;
        return envelope(teamUuid, await updateTag(deps, request.principal, teamUuid, tagUuid, request.body));
      },
    );

    app.delete(
      '/teams/:teamUuid/tags/:tagUuid',
      {
        schema: {
          operationId: 'platform.teamTags.delete',
          tags: ['teams'],
          summary: 'Delete a team tag',
          description: "Answers with the team's remaining tags.",
          params: TeamTagParamsSchema,
          response: { 200: TagListEnvelopeSchema, ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => {
        const { teamUuid, tagUuid } = request.params;
        return envelope(teamUuid, await deleteTag(deps, request.principal, teamUuid, tagUuid));
      },
    );
  };
}
