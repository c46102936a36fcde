import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { DeletionResultSchema, deletionResult } from '../accounts/account.schemas.js';
import { platformErrorResponses } from '../platform.envelope.js';
import {
  CreateNoteSchema,
  ListNotesQuerySchema,
  NoteAttachmentParamsSchema,
  NoteIdParamsSchema,
  NoteSchema,
  UpdateNoteSchema,
} from './account-note.schemas.js';
import { createNote, deleteNote, getNote, listNotes, removeNoteAttachment, updateNote } from './account-note.service.js';

const tags = ['notes'];

/**
 * Account notes, answered without an envelope as upstream does: endpoint 9 (update) and 10
 * (remove an attachment) answer the note object itself. Uploads are in `account-note-attachment.routes.ts`.
 */
export function accountNoteRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/accounts/notes',
      {
        schema: {
          operationId: 'platform.accounts.notes.create',
          tags,
          summary: "Add a note to an account; the key's user is its author; type defaults to the default note type",
          body: CreateNoteSchema,
          response: { 201: NoteSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request, reply) => reply.code(201).send(await createNote(deps, request.principal, request.body)),
    );

    app.get(
      '/accounts/notes',
      {
        schema: {
          operationId: 'platform.accounts.notes.list',
          tags,
          summary: "An account's notes, newest first; others' private notes are left out except for admins",
          description:
            'Ordered by creation time, then id, both descending. Page by `page` (0-based) or by `cursor`, not both: ' +
            "the next page's cursor is in the `x-next-cursor` header, absent on the last page.",
          querystring: ListNotesQuerySchema,
          response: { 200: PagedArraySchema(NoteSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request, reply) => sendPage(reply, await listNotes(deps.db, request.principal, request.query)),
    );

    app.get(
      '/accounts/notes/:noteId',
      {
        schema: {
          operationId: 'platform.accounts.notes.get',
          summary: 'One note of an account',
          tags,
          params: NoteIdParamsSchema,
          response: { 200: NoteSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => getNote(deps.db, request.principal, request.params.noteId),
    );

    const updateSchema = {
      operationId: 'platform.accounts.notes.update',
      tags,
      summary: 'Update a note: the fields sent replace the stored ones; answers the note',
      description:
        'Idempotent: the same request twice leaves the same note (only updatedAt moves). Fields left out stay as they ' +
        'are; metadata: null clears it. attachmentUrls, when sent, is the complete list of the note’s link attachments: ' +
        'afterwards the note links exactly those URLs (each once, in the order sent), links no longer listed are ' +
        'removed from the note, and links already in place keep their attachment ids; [] removes every link. Uploaded ' +
        'files are not affected: add them with POST /v1/accounts/notes/{noteId}/attachments and remove them with ' +
        'DELETE /v1/accounts/notes/{noteId}/attachments/{attachmentId}.',
      body: UpdateNoteSchema,
      response: { 200: NoteSchema, ...platformErrorResponses([400, 403, 404]) },
    };
    app.put('/accounts/notes/:noteId', { schema: { ...updateSchema, params: NoteIdParamsSchema } }, async (request) =>
      updateNote(deps, request.principal, request.params.noteId, request.body),
    );

    app.delete(
      '/accounts/notes/:noteId',
      {
        schema: {
          operationId: 'platform.accounts.notes.delete',
          tags,
          summary: 'Soft-delete a note (its author or an admin)',
          params: NoteIdParamsSchema,
          response: { 200: DeletionResultSchema, ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => {
        await deleteNote(deps, request.principal, request.params.noteId);
        return deletionResult('Account note deleted successfully');
      },
    );

    app.delete(
      '/accounts/notes/:noteId/attachments/:attachmentId',
      {
        schema: {
          operationId: 'platform.accounts.notes.removeAttachment',
          tags,
          summary: 'Remove an attachment from a note; answers the updated note',
          params: NoteAttachmentParamsSchema,
          response: { 200: NoteSchema, ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => removeNoteAttachment(deps, request.principal, request.params.noteId, request.params.attachmentId),
    );

    // Without the id segment these would reach `/accounts/:id`; they are the contract's 400 instead.
    app.put(
      '/accounts/notes',
      { schema: { ...updateSchema, operationId: 'platform.accounts.notes.updateWithoutId', hide: true } },
      async (request) => updateNote(deps, request.principal, undefined, request.body),
    );
    app.delete(
      '/accounts/notes',
      { schema: { operationId: 'platform.accounts.notes.deleteWithoutId', hide: true, response: platformErrorResponses([400]) } },
      async (request) => {
        await deleteNote(deps, request.principal, undefined);
      },
    );
  };
}
