import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  AttachmentFileSchema,
  AttachmentIdParamsSchema,
  AttachmentMetadataSchema,
  AttachmentSchema,
  UploadAttachmentBodySchema,
} from './attachment.schemas.js';
import { getAttachmentMetadata, openAttachment, type UploadInput, uploadAttachment } from './attachment.service.js';
import { createAttachmentStorage } from './attachment.storage.js';

const tags = ['attachments'];
const FILE_FIELD = 'file';

/**
 * The first part carrying a file, which must be named `file`; form fields before it are refused
 * like unknown JSON fields, and parts after it are ignored (a second file is never read).
 */
async function readUpload(request: FastifyRequest): Promise<UploadInput & { streamFailed(): boolean }> {
  if (!request.isMultipart()) {
    throw new AppError({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the file as multipart/form-data, in a part named "file"',
    });
  }
  const part = await request.file().catch((error: { statusCode?: number }) => {
    throw error.statusCode ? error : malformed(error);
  });
  if (!part || part.fieldname !== FILE_FIELD) {
    part?.file.resume();
    throw AppError.invalid('file is required: send the file in a multipart part named "file"', {
      location: 'body',
      path: [FILE_FIELD],
      rule: 'required',
    });
  }
  const unknownField = Object.keys(part.fields).find((name) => name !== FILE_FIELD);
  if (unknownField) {
    part.file.resume();
    throw AppError.invalid(`${unknownField} is not an accepted field`, {
      location: 'body',
      path: [unknownField],
      rule: 'additionalProperties',
    });
  }
  return {
    fileName: part.filename,
    contentType: part.mimetype,
    stream: part.file,
    truncated: () => part.file.truncated,
    // Set when the body broke off mid-file (possibly before the handler got to the stream).
    streamFailed: () => part.file.errored !== null,
  };
}

function malformed(cause: unknown): AppError {
  return new AppError({ code: 'MALFORMED_BODY', message: 'Request body is not valid multipart/form-data', cause });
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): an ASCII fallback with quotes,
 * backslashes, percent signs and non-ASCII replaced, then the exact name percent-encoded, so no
 * character of a file name can end the header or add another.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Options of `@fastify/multipart` for a plugin that takes uploads: one file of at most ATTACHMENT_MAX_BYTES. */
export function multipartOptions(config: Config) {
  return { limits: { fileSize: config.ATTACHMENT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 20 } };
}

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
