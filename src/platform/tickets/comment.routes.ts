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
import {
  CommentParamsSchema,
  CommentSchema,
  CreateCommentSchema,
  ListCommentsQuerySchema,
  UpdateCommentSchema,
} from './comment.schemas.js';
import { addComment } from './comment.service.js';
import { deleteComment, editComment, listComments } from './comment-threads.service.js';
import { TicketIdParamsSchema } from './ticket.schemas.js';

const tags = ['tickets'];

export function commentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    const createSchema = {
      operationId: 'platform.tickets.comment',
      tags,
      summary: 'Comment on a ticket; a replayed deDuplicationKey answers 200 with the first comment',
      body: CreateCommentSchema,
      response: {
        201: PlatformEnvelopeSchema(CommentSchema),
        200: PlatformEnvelopeSchema(CommentSchema),
        ...platformErrorResponses([400, 404, 409]),
      },
    };
    app.post('/tickets/:id/comment', { schema: { ...createSchema, params: TicketIdParamsSchema } }, async (request, reply) => {
      const { comment, created } = await addComment(deps, request.principal, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(ok(comment));
    });
    // The contract's "Ticket ID is required!" for a request that leaves the id out.
    app.post(
      '/tickets//comment',
      { schema: { ...createSchema, operationId: 'platform.tickets.commentWithoutId', hide: true } },
      async (request) => {
        await addComment(deps, request.principal, undefined, request.body);
      },
    );

    app.get(
      '/tickets/:id/comments',
      {
        schema: {
          operationId: 'platform.tickets.listComments',
          tags,
          summary:
            'Threads in order: each top-level comment followed by its replies; page (0-based) and cursor (the nextCursor of the page before) count threads',
          params: TicketIdParamsSchema,
          querystring: ListCommentsQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(CommentSchema)), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => {
        const page = await listComments(deps.db, request.principal, request.params.id, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.patch(
      '/tickets/:id/comments/:commentId',
      {
        schema: {
          operationId: 'platform.tickets.updateComment',
          tags,
          summary: 'Edit a comment (its author or an admin); new content sets isEdited',
          params: CommentParamsSchema,
          body: UpdateCommentSchema,
          response: { 200: PlatformEnvelopeSchema(CommentSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) =>
        ok(await editComment(deps, request.principal, request.params.id, request.params.commentId, request.body)),
    );

    app.delete(
      '/tickets/:id/comments/:commentId',
      {
        schema: {
          operationId: 'platform.tickets.deleteComment',
          tags,
          summary: 'Soft-delete a comment (its author or an admin)',
          params: CommentParamsSchema,
          response: { 200: PlatformEnvelopeSchema(CommentSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await deleteComment(deps, request.principal, request.params.id, request.params.commentId)),
    );
  };
}
