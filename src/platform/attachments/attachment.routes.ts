import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { contentDisposition, malformed, multipartOptions, readUpload } from '../../http/uploads.js';
import { AppError } from '../../lib/errors.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  AttachmentFileSchema,
  AttachmentIdParamsSchema,
  AttachmentLimitsSchema,
  AttachmentMetadataSchema,
  AttachmentSchema,
  UploadAttachmentBodySchema,
} from './attachment.schemas.js';
import { getAttachmentMetadata, openAttachment, uploadAttachment } from './attachment.service.js';
import { createAttachmentStorage } from './attachment.storage.js';

const tags = ['attachments'];

/**
 * Reads the request's `file` part and stores it as an attachment of the caller's organization.
 * For any route that takes an upload, in a plugin that registered multipart with `multipartOptions`.
 */
export async function receiveUpload(service: Parameters<typeof uploadAttachment>[0], request: FastifyRequest) {
  const upload = await readUpload(request);
  // A body that breaks off mid-file is the client's fault: a 400, not a 500.
  return uploadAttachment(service, request.principal, upload).catch((error: unknown) => {
    throw upload.streamFailed() && !(error instanceof AppError) ? malformed(error) : error;
  });
}

export function attachmentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const service = { ...deps, storage: createAttachmentStorage(deps.config) };
  return async (app) => {
    // Registered here, so multipart bodies are parsed only by these routes.
    await app.register(multipart, multipartOptions(deps.config));

    app.post(
      '/attachments',
      {
        schema: {
          operationId: 'platform.attachments.upload',
          tags,
          summary: 'Upload a file (multipart/form-data, one part named "file"); link it to comments by its id',
          consumes: ['multipart/form-data'],
          body: { content: { 'multipart/form-data': { schema: UploadAttachmentBodySchema } } },
          response: { 201: PlatformEnvelopeSchema(AttachmentSchema), ...platformErrorResponses([400, 413, 415]) },
        },
        // The multipart body is read as a stream by the handler; the body schema only documents it.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => reply.code(201).send(ok(await receiveUpload(service, request))),
    );

    app.get(
      '/attachments/limits',
      {
        schema: {
          operationId: 'platform.attachments.limits',
          tags,
          summary: 'The largest file an upload takes, so a client can refuse a larger one before sending it',
          response: { 200: PlatformEnvelopeSchema(AttachmentLimitsSchema), ...platformErrorResponses([]) },
        },
      },
      async () => ok({ maxBytes: deps.config.ATTACHMENT_MAX_BYTES }),
    );

    app.get(
      '/attachments/:id',
      {
        schema: {
          operationId: 'platform.attachments.download',
          tags,
          summary: 'Download the file, with the content type it was uploaded with; a link attachment redirects (302) to its URL',
          params: AttachmentIdParamsSchema,
          response: {
            200: { description: 'The file', content: { 'application/octet-stream': { schema: AttachmentFileSchema } } },
            302: { description: 'A link attachment: redirects to its URL, which the server never fetches', type: 'null' },
            ...platformErrorResponses([400, 404]),
          },
        },
      },
      async (request, reply) => {
        const file = await openAttachment(service, request.principal, request.params.id);
        if (file.kind === 'link') {
          return reply.redirect(file.url, 302);
        }
        return reply
          .header('content-type', file.contentType)
          .header('content-length', file.size)
          .header('content-disposition', contentDisposition(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(file.stream);
      },
    );

    app.get(
      '/attachments/:id/metadata',
      {
        schema: {
          operationId: 'platform.attachments.metadata',
          summary: "A file's name, content type, size, SHA-256 and uploader, without its bytes",
          tags,
          params: AttachmentIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(AttachmentMetadataSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getAttachmentMetadata(service, request.principal, request.params.id)),
    );
  };
}
