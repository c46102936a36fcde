import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { contentDisposition, malformed, multipartOptions, readUpload } from '../../http/uploads.js';
import { AppError } from '../../lib/errors.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { messengerErrorResponses, withRetryAfter } from './messenger.errors.js';
import { SlugSchema } from './messenger.schemas.js';
import { ConversationMessageSchema, ConversationParamsSchema } from './messenger-conversation.schemas.js';
import { conversationFile, countMessage, sendFile } from './messenger-conversation.service.js';
import { visitorOf } from './messenger-request.js';

const tags = ['messenger'];
const PUBLIC = { public: true };
const VISITOR: Record<string, string[]>[] = [{ visitorToken: [] }];
/** Images a browser shows inline without running anything; every other file is a download. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const FileBytesSchema = Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'The bytes' });

const FileParamsSchema = Type.Object(
  {
    slug: SlugSchema,
    conversationId: Type.String({ minLength: 1, maxLength: 64 }),
    fileId: Type.String({ minLength: 1, maxLength: 64, description: "A file of one of the conversation's messages" }),
  },
  { additionalProperties: false },
);

/** Files in a conversation with a person: the visitor's uploads, and downloads of the conversation's files. */
export function messengerFileRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const service = { ...deps, storage: createAttachmentStorage(deps.config) };
  return async (app) => {
    // Registered here, so multipart bodies are parsed only by the upload route.
    await app.register(multipart, multipartOptions(deps.config));

    app.post(
      '/:slug/api/conversations/:conversationId/files',
      {
        config: PUBLIC,
        schema: {
          operationId: 'messenger.conversations.sendFile',
          tags,
          summary:
            'Send a file (multipart/form-data, one part named "file", up to ATTACHMENT_MAX_BYTES) to the person who has ' +
            'the conversation: a message of its own with the file. 409 before a handoff (the assistant takes no files); ' +
            'limited as messages are.',
          consumes: ['multipart/form-data'],
          params: ConversationParamsSchema,
          security: VISITOR,
          response: {
            201: Type.Object({ message: ConversationMessageSchema }, { additionalProperties: false }),
            ...messengerErrorResponses([400, 403, 404, 409, 413, 415, 429]),
          },
        },
      },
      async (request, reply) => {
        const { helpCenter, visitor } = await visitorOf(deps, request);
        await withRetryAfter(reply, () =>
          countMessage({ ...deps, attempts: deps.limits.attempts }, helpCenter, visitor, request.ip),
        );
        const upload = await readUpload(request);
        const message = await sendFile(service, helpCenter, visitor, request.params.conversationId, upload).catch(
          (error: unknown) => {
            upload.stream.resume();
            throw upload.streamFailed() && !(error instanceof AppError) ? malformed(error) : error;
          },
        );
        return reply.code(201).send({ message });
      },
    );

    app.get(
      '/:slug/api/conversations/:conversationId/files/:fileId',
      {
        config: PUBLIC,
        schema: {
          operationId: 'messenger.conversations.file',
          tags,
          summary:
            "A file of the conversation's messages (the visitor's, or one a person attached to a public reply); " +
            'images are shown inline, anything else is a download',
          params: FileParamsSchema,
          security: VISITOR,
          response: {
            200: { description: 'The file', content: { 'application/octet-stream': { schema: FileBytesSchema } } },
            ...messengerErrorResponses([404]),
          },
        },
      },
      async (request, reply) => {
        const { helpCenter, visitor } = await visitorOf(deps, request);
        const { conversationId, fileId } = request.params;
        const file = await conversationFile(service, helpCenter, visitor, conversationId, fileId);
        if (file.kind === 'link') {
          throw AppError.notFound('File not found');
        }
        const inline = INLINE_IMAGES.has(file.contentType);
        return reply
          .header('content-type', inline ? file.contentType : 'application/octet-stream')
          .header('content-length', file.size)
          .header('content-disposition', inline ? 'inline' : contentDisposition(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-store')
          .send(file.stream);
      },
    );
  };
}
