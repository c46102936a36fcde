import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import type { UploadInput } from '../lib/upload-input.js';

/** Uploads of one file (`multipart/form-data`, a part named `file`), for every area that takes them. */

const FILE_FIELD = 'file';

/**
 * The first part carrying a file, which must be named `file`; form fields before it are refused
 * like unknown JSON fields, and parts after it are ignored (a second file is never read).
 */
export async function readUpload(request: FastifyRequest): Promise<UploadInput & { streamFailed(): boolean }> {
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

export function malformed(cause: unknown): AppError {
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
