import { api, unwrap } from '../../api/client';
import type { AccountNote } from './account-queries';

/** Uploads a file to the note (multipart, one part named "file"); answers the note with it attached. */
export async function attachFileToNote(noteId: string, file: File): Promise<AccountNote> {
  const form = new FormData();
  form.append('file', file);
  return unwrap(
    api.POST('/v1/accounts/notes/{noteId}/attachments', {
      params: { path: { noteId } },
      body: form as never,
      bodySerializer: (body: unknown) => body as FormData,
    }),
  );
}

/** Endpoint 10: the attachment leaves the note (the stored file stays for whatever else links it). */
export async function removeNoteAttachment(noteId: string, attachmentId: string): Promise<AccountNote> {
  return unwrap(
    api.DELETE('/v1/accounts/notes/{noteId}/attachments/{attachmentId}', { params: { path: { noteId, attachmentId } } }),
  );
}

/** Bytes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  if (bytes < 1024 * 1024) {
    return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  }
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
