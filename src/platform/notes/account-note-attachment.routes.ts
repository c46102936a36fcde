import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { multipartOptions } from '../../http/uploads.js';
import { receiveUpload } from '../attachments/attachment.routes.js';
import { UploadAttachmentBodySchema } from '../attachments/attachment.schemas.js';
import { createAttachmentStorage } from '../attachments/attachment.storage.js';
import { platformErrorResponses } from '../platform.envelope.js';
import { NoteIdParamsSchema, NoteSchema } from './account-note.schemas.js';
import { addUploadedAttachment } from './account-note.service.js';

/** Uploading a file to a note, in a plugin of its own so only this route parses multipart bodies. */
export function accountNoteAttachmentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const service = { ...deps, storage: createAttachmentStorage(deps.config) };
  return async (app) => {
    await app.register(multipart, multipartOptions(deps.config));

    app.post(
      '/accounts/notes/:noteId/attachments',
      {
        schema: {
          operationId: 'platform.accounts.notes.uploadAttachment',
          tags: ['notes'],
          summary: 'Attach an uploaded file to a note (multipart/form-data, one part named "file"); answers the note',
          consumes: ['multipart/form-data'],
          params: NoteIdParamsSchema,
          body: { content: { 'multipart/form-data': { schema: UploadAttachmentBodySchema } } },
          response: { 201: NoteSchema, ...platformErrorResponses([400, 403, 404, 413, 415]) },
        },
        // The multipart body is read as a stream by the handler; the schemas only document it. The
        // note id is checked by the service (blank: 400; unknown: 404).
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
        const note = await addUploadedAttachment(deps, request.principal, request.params.noteId, () =>
          receiveUpload(service, request),
        );
        return reply.code(201).send(note);
      },
    );
  };
}
