import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';

/** What an upload answers and what other resources show for each of their attachments. */
export const AttachmentSchema = Type.Object(
  {
    id: UlidSchema,
    fileName: Type.String(),
    contentType: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    url: Type.String({ description: 'GET it with an API key of the organization to download the file' }),
  },
  { additionalProperties: false },
);

export const AttachmentMetadataSchema = Type.Object(
  {
    ...AttachmentSchema.properties,
    sha256: Type.String({ description: 'Hex SHA-256 of the bytes' }),
    uploadedById: UlidSchema,
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

/** What an upload may be, so a client can refuse a file before sending it. */
export const AttachmentLimitsSchema = Type.Object(
  { maxBytes: Type.Integer({ minimum: 1, description: 'The largest file an upload takes (ATTACHMENT_MAX_BYTES)' }) },
  { additionalProperties: false },
);

export const AttachmentIdParamsSchema = Type.Object({ id: UlidSchema });

/** Documentation of the multipart body; the handler reads it as a stream (see the route). */
export const UploadAttachmentBodySchema = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The file; its part name must be `file`' }) },
  { additionalProperties: false },
);

/** The file's bytes, sent as a stream with the content type given at upload. */
export const AttachmentFileSchema = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description: 'The bytes, with the content type given at upload',
});
