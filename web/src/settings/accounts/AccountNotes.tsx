import { useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { headerCursorPage } from '../../ui/header-cursor-page';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { type Account, notesKey } from './account-queries';
import { NEW_NOTE, NoteEditor, type NoteValues } from './NoteEditor';
import { NoteItem } from './NoteItem';
import { attachFileToNote } from './note-files';

const PAGE_SIZE = 20;

/** The account's notes, a page at a time, and a new one written in markdown with its files. */
export function AccountNotes({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const notes = useCursorPages(notesKey(account.id), (cursor) =>
    headerCursorPage(
      api.GET('/v1/accounts/notes', {
        params: { query: { accountId: account.id, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  const add = async (values: NoteValues, files: File[]) => {
    const note = await unwrap(
      api.POST('/v1/accounts/notes', {
        body: {
          accountId: account.id,
          content: values.content,
          visibility: values.visibility,
          ...(values.type ? { type: values.type } : {}),
        },
      }),
    );
    for (const file of files) {
      await attachFileToNote(note.id, file);
    }
    await queryClient.invalidateQueries({ queryKey: notesKey(account.id) });
  };
  return (
    <section aria-label="Notes" className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold">Notes</h2>
      <NoteEditor defaultValues={NEW_NOTE} submitLabel="Add note" withFiles onSave={add} />
      <ErrorNotice error={notes.error} />
      {!notes.isPending && !notes.error && notes.items.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No notes yet: write what the team should know about this account.
        </p>
      ) : null}
      {notes.items.map((note) => (
        <NoteItem key={note.id} note={note} />
      ))}
      <LoadMore hasMore={notes.hasMore} loading={notes.loadingMore} onLoadMore={() => void notes.loadMore()} />
    </section>
  );
}
