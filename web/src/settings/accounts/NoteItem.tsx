import { useQueryClient } from '@tanstack/react-query';
import { Lock, Paperclip, Pencil } from 'lucide-react';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Markdown } from '../../ui/Markdown';
import { type AccountNote, notesKey } from './account-queries';
import { DeleteNote } from './DeleteNote';
import { NoteAttachments } from './NoteAttachments';
import { NoteEditor, type NoteValues } from './NoteEditor';
import { attachFileToNote, removeNoteAttachment } from './note-files';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One note: read, edited in place (endpoint 9), its files added and removed (endpoint 10), deleted after a confirmation. */
export function NoteItem({ note }: { note: AccountNote }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: notesKey(note.accountId) });

  const update = async (values: NoteValues) => {
    await unwrap(
      api.PUT('/v1/accounts/notes/{noteId}', {
        params: { path: { noteId: note.id } },
        body: { content: values.content, visibility: values.visibility, ...(values.type ? { type: values.type } : {}) },
      }),
    );
    setEditing(false);
    await refresh();
  };
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await refresh();
    } catch (failure) {
      setError(failure);
    }
  };
  const remove = (attachmentId: string) => {
    setRemoving(attachmentId);
    void act(() => removeNoteAttachment(note.id, attachmentId)).finally(() => setRemoving(null));
  };
  const upload = (files: File[]) => {
    setUploading(true);
    void act(async () => {
      for (const file of files) {
        await attachFileToNote(note.id, file);
      }
    }).finally(() => setUploading(false));
  };

  return (
    <article
      aria-label={`Note by ${note.author}`}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <header className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span className="font-medium text-zinc-800 dark:text-zinc-200">{note.author}</span>
        <time dateTime={note.createdAt}>{when(note.createdAt)}</time>
        {note.type ? <Badge tone="blue">{note.type}</Badge> : null}
        {note.visibility === 'private' ? (
          <Badge tone="amber">
            <Lock size={10} aria-hidden className="inline" /> Private
          </Badge>
        ) : null}
        <span className="flex-1" />
        {editing ? null : (
          <>
            <Button variant="ghost" onClick={() => setEditing(true)} aria-label={`Edit note of ${when(note.createdAt)}`}>
              <Pencil size={14} aria-hidden />
              Edit
            </Button>
            <DeleteNote note={note} written={when(note.createdAt)} />
          </>
        )}
      </header>
      {editing ? (
        <NoteEditor
          defaultValues={{ content: note.content, type: note.typeId ?? '', visibility: note.visibility }}
          submitLabel="Save note"
          withFiles={false}
          onSave={update}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <Markdown markdown={note.content} className="text-sm" />
      )}
      <NoteAttachments ids={note.attachments} removing={removing} onRemove={remove} />
      <ErrorNotice error={error} />
      <label className="inline-flex w-fit cursor-pointer items-center gap-1 text-xs text-blue-700 hover:underline has-focus-visible:outline-2 dark:text-blue-400">
        <Paperclip size={12} aria-hidden />
        {uploading ? 'Uploading…' : 'Add file'}
        <input
          type="file"
          multiple
          className="sr-only"
          disabled={uploading}
          onChange={(event) => {
            upload([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
    </article>
  );
}
