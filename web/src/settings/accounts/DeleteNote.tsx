import { useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { DeleteAction } from '../../ui/DeleteAction';
import { type AccountNote, notesKey } from './account-queries';

/**
 * A note's "Delete", asked first (the API lets its author and admins delete it; others get its
 * refusal here). Deleted softly: the note and its files leave the account's notes for everyone.
 */
export function DeleteNote({ note, written }: { note: AccountNote; written: string }) {
  const queryClient = useQueryClient();
  return (
    <DeleteAction
      label="Delete"
      accessibleName={`Delete note of ${written}`}
      variant="ghost"
      title="Delete this note?"
      description={`The note ${note.author} wrote on ${written} leaves this account's notes for everyone, with its files.`}
      confirmLabel="Delete note"
      remove={() => unwrap(api.DELETE('/v1/accounts/notes/{noteId}', { params: { path: { noteId: note.id } } }))}
      onDeleted={() => queryClient.invalidateQueries({ queryKey: notesKey(note.accountId) })}
    />
  );
}
