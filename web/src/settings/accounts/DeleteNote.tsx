import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { type AccountNote, notesKey } from './account-queries';

/**
 * A note's "Delete", asked first (the API lets its author and admins delete it; others get its
 * refusal here). Deleted softly: the note and its files leave the account's notes for everyone.
 */
export function DeleteNote({ note, written }: { note: AccountNote; written: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/accounts/notes/{noteId}', { params: { path: { noteId: note.id } } }));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: notesKey(note.accountId) });
    } catch (failure) {
      setOpen(false);
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} aria-label={`Delete note of ${written}`}>
        <Trash2 size={14} aria-hidden />
        Delete
      </Button>
      <ErrorNotice error={error} className="basis-full" />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete this note?"
        description={`The note ${note.author} wrote on ${written} leaves this account's notes for everyone, with its files.`}
        confirmLabel="Delete note"
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
