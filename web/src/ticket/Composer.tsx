import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, Paperclip, Send } from 'lucide-react';
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { fillPlaceholders } from '../../../src/shared/macro-placeholders';
import { api, unwrap } from '../api/client';
import type { CommentCreate, Macro, OrganizationUser, Ticket, TicketComment } from '../api/types';
import type { Me } from '../auth/session';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { Markdown, markdownToSafeHtml } from '../ui/Markdown';
import { Tabs } from '../ui/Tabs';
import { upsertComment } from './conversation';
import { DraftAttachments } from './DraftAttachments';
import type { ComposerMode, DraftAttachment } from './draft-storage';
import { MacroPicker } from './MacroPicker';
import { MentionList } from './MentionList';
import { placeholderValues } from './macro-placeholders';
import {
  activeMentionQuery,
  insertMention,
  type MentionQuery,
  matchMentionableUsers,
  mentionedUserIds,
  mentionToken,
} from './mentions';
import { commentsQuery, emailsQuery, ticketQuery, usersQuery } from './ticket-queries';
import { useDraft } from './use-draft';

const MODES = [
  { value: 'reply' as const, label: 'Reply' },
  { value: 'note' as const, label: 'Internal note', icon: <Lock size={13} aria-hidden /> },
];

async function upload(file: File): Promise<DraftAttachment> {
  const form = new FormData();
  form.append('file', file, file.name || 'pasted-file');
  const { data } = await unwrap(
    api.POST('/v1/attachments', { body: form as never, bodySerializer: (body: unknown) => body as FormData }),
  );
  return { id: data.id, fileName: data.fileName, contentType: data.contentType, size: data.size };
}

/** What the API takes for the draft: markdown rendered to HTML (the API sanitises it again), mentions, files, and the draft's key. */
function commentBody(draft: ReturnType<typeof useDraft>['draft']): CommentCreate {
  const note = draft.mode === 'note';
  const mentions = note ? mentionedUserIds(draft.text, draft.mentions) : [];
  return {
    contentHtml: markdownToSafeHtml(draft.text),
    commentVisibility: note ? 'private' : 'public',
    commentType: note ? 'note' : 'comment',
    shouldSendEmail: !note,
    ...(draft.attachments.length > 0 ? { attachmentIds: draft.attachments.map((file) => file.id) } : {}),
    ...(mentions.length > 0 ? { metadata: { mentions } } : {}),
    deDuplicationKey: draft.deDuplicationKey,
  };
}

/**
 * Reply (public, emailed to the requestor) or internal note, in markdown with a preview,
 * @mentions, files by drop or paste, and macros. The draft lives in the browser per ticket.
 */
export function Composer({
  ticket,
  ticketKey,
  me,
  onDraftChange,
}: {
  ticket: Ticket;
  ticketKey: string;
  me: Me;
  /** Whether something is being written: the page warns of others' changes only then. */
  onDraftChange: (writing: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const { draft, update, reset, empty } = useDraft(ticket.id);
  const [preview, setPreview] = useState(false);
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [activeIndex, setActiveIndex] = useState(0);
  const [uploading, setUploading] = useState<{ key: string; name: string }[]>([]);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const sending = useRef(false);
  const listId = useId();
  const note = draft.mode === 'note';
  const users = useQuery({ ...usersQuery, enabled: note });

  useEffect(() => onDraftChange(!empty), [empty, onDraftChange]);
  useLayoutEffect(() => {
    if (pendingCaret.current !== null && textarea.current) {
      textarea.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  });

  const suggestions = useMemo(
    // The author is never told of their own note, so they are not offered.
    () =>
      note && mention && users.data
        ? matchMentionableUsers(
            users.data.filter((user) => user.id !== me.user.id),
            mention.query,
          )
        : [],
    [note, mention, users.data, me.user.id],
  );

  const addComment = (comment: TicketComment) => {
    queryClient.setQueryData(commentsQuery(ticketKey).queryKey, (list) => upsertComment(list, comment));
    void queryClient.invalidateQueries({ queryKey: emailsQuery(ticketKey).queryKey });
  };

  const send = useMutation({
    mutationFn: async (body: CommentCreate) =>
      (await unwrap(api.POST('/v1/tickets/{id}/comment', { params: { path: { id: ticket.id } }, body }))).data,
    onSuccess: (comment) => {
      addComment(comment);
      reset(draft.mode);
      setPreview(false);
    },
    onSettled: () => {
      sending.current = false;
    },
  });

  const applyMacro = useMutation({
    mutationFn: async (macro: Macro) =>
      (
        await unwrap(
          api.POST('/v1/tickets/{id}/macros/{macroId}/apply', {
            params: { path: { id: ticket.id, macroId: macro.id } },
            body: { deDuplicationKey: crypto.randomUUID() },
          }),
        )
      ).data,
    onSuccess: ({ comment, ticket: changed }) => {
      addComment(comment);
      queryClient.setQueryData(ticketQuery(ticketKey).queryKey, changed);
    },
  });

  const submit = () => {
    // A second click lands before React re-renders the disabled button; the same draft key would
    // make the API answer with the first comment anyway, but no second request is needed.
    if (sending.current || draft.text.trim() === '' || uploading.length > 0) {
      return;
    }
    sending.current = true;
    send.mutate(commentBody(draft));
  };

  const setText = (text: string, caret: number) => {
    update((current) => ({ ...current, text }));
    setMention(activeMentionQuery(text, caret));
    setActiveIndex(0);
  };

  const pick = (user: OrganizationUser) => {
    if (!mention || !textarea.current) {
      return;
    }
    const token = mentionToken(user, users.data ?? []);
    const caret = textarea.current.selectionStart;
    const next = insertMention(draft.text, mention, caret, token);
    update((current) => ({ ...current, text: next.text, mentions: [...current.mentions, { id: user.id, token }] }));
    pendingCaret.current = next.caret;
    setMention(null);
  };

  const insertMacro = (macro: Macro) => {
    const text = fillPlaceholders(macro.content, placeholderValues(ticket, me.user));
    update((current) => ({
      ...current,
      mode: macro.commentVisibility === 'private' ? 'note' : 'reply',
      text: current.text.trim() === '' ? text : `${current.text.replace(/\s+$/, '')}\n\n${text}`,
    }));
    setPreview(false);
    textarea.current?.focus();
  };

  const attach = async (files: readonly File[]) => {
    if (files.length === 0) {
      return;
    }
    setUploadError(null);
    const pending = files.map((file) => ({ file, key: crypto.randomUUID(), name: file.name || 'pasted file' }));
    setUploading((current) => [...current, ...pending.map(({ key, name }) => ({ key, name }))]);
    for (const { file, key } of pending) {
      try {
        const uploaded = await upload(file);
        update((current) => ({ ...current, attachments: [...current.attachments, uploaded] }));
      } catch (error) {
        setUploadError(error);
      } finally {
        setUploading((current) => current.filter((entry) => entry.key !== key));
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveIndex((index) => (index + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const user = suggestions[activeIndex] ?? suggestions[0];
        if (user) {
          pick(user);
        }
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      submit();
    }
  };

  const onDrop = (event: DragEvent) => {
    if (event.dataTransfer.files.length > 0) {
      event.preventDefault();
      void attach([...event.dataTransfer.files]);
    }
  };
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length > 0) {
      event.preventDefault();
      void attach([...event.clipboardData.files]);
    }
  };

  const requestor =
    [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ') || ticket.requestorEmail;
  const expanded = suggestions.length > 0;
  const activeUser = suggestions[activeIndex];
  return (
    <section
      aria-label="Composer"
      className={`rounded-lg border bg-white shadow-sm dark:bg-zinc-900 ${
        note ? 'border-amber-300 dark:border-amber-800' : 'border-zinc-300 dark:border-zinc-700'
      }`}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) {
          event.preventDefault();
        }
      }}
      onDrop={onDrop}
    >
      <Tabs
        label="Composer mode"
        value={draft.mode}
        onValueChange={(mode: ComposerMode) => {
          update((current) => ({ ...current, mode }));
          setMention(null);
        }}
        items={MODES}
        tone={{ reply: 'data-[state=active]:border-blue-600', note: 'data-[state=active]:border-amber-500' }}
      >
        <div className={note ? 'bg-amber-50/60 dark:bg-amber-950/20' : ''}>
          <div className="flex items-center gap-1 px-2 pt-2">
            <fieldset aria-label="Editor view" className="flex rounded-md border border-zinc-200 p-0.5 dark:border-zinc-700">
              <button
                type="button"
                aria-pressed={!preview}
                className="rounded px-2 py-0.5 text-xs aria-pressed:bg-zinc-200 dark:aria-pressed:bg-zinc-700"
                onClick={() => setPreview(false)}
              >
                Write
              </button>
              <button
                type="button"
                aria-pressed={preview}
                className="rounded px-2 py-0.5 text-xs aria-pressed:bg-zinc-200 dark:aria-pressed:bg-zinc-700"
                onClick={() => setPreview(true)}
              >
                Preview
              </button>
            </fieldset>
            <MacroPicker
              teamId={ticket.teamId}
              onInsert={insertMacro}
              onApply={(macro) => applyMacro.mutate(macro)}
              applying={applyMacro.isPending}
            />
            <label className="inline-flex cursor-pointer items-center gap-1 rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800">
              <Paperclip size={14} aria-hidden />
              Attach files
              <input
                type="file"
                multiple
                className="sr-only"
                onChange={(event) => {
                  void attach([...(event.target.files ?? [])]);
                  event.target.value = '';
                }}
              />
            </label>
          </div>
          <div className="relative p-2">
            {preview ? (
              <div className="min-h-28 rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-700">
                {draft.text.trim() === '' ? (
                  <p className="text-sm text-zinc-500">Nothing to preview.</p>
                ) : (
                  <Markdown markdown={draft.text} label="Preview" />
                )}
              </div>
            ) : (
              <>
                <textarea
                  ref={textarea}
                  aria-label="Message"
                  value={draft.text}
                  rows={4}
                  placeholder={
                    note
                      ? 'An internal note: only your team sees it. Type @ to mention a teammate.'
                      : `Reply to ${requestor} (markdown)`
                  }
                  className="block w-full resize-y rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
                  aria-autocomplete={note ? 'list' : 'none'}
                  aria-controls={expanded ? listId : undefined}
                  aria-activedescendant={expanded && activeUser ? `${listId}-${activeUser.id}` : undefined}
                  onChange={(event) => setText(event.target.value, event.target.selectionStart)}
                  onSelect={(event) =>
                    setMention(activeMentionQuery(event.currentTarget.value, event.currentTarget.selectionStart))
                  }
                  onBlur={() => setMention(null)}
                  onKeyDown={onKeyDown}
                  onPaste={onPaste}
                />
                {expanded ? <MentionList id={listId} users={suggestions} activeIndex={activeIndex} onPick={pick} /> : null}
              </>
            )}
          </div>
          <DraftAttachments
            attachments={draft.attachments}
            uploading={uploading}
            onRemove={(id) =>
              update((current) => ({ ...current, attachments: current.attachments.filter((file) => file.id !== id) }))
            }
          />
          <div className="flex flex-col gap-2 px-2 pb-2">
            <ErrorNotice error={send.error ?? applyMacro.error ?? uploadError} />
            <div className="flex items-center gap-2">
              <p className="min-w-0 flex-1 truncate text-xs text-zinc-500 dark:text-zinc-400">
                {note ? 'Only your team sees internal notes.' : `Emailed to ${ticket.requestorEmail}.`}
              </p>
              <Button
                variant="primary"
                className={note ? 'bg-amber-600! hover:bg-amber-700! disabled:bg-amber-400!' : ''}
                disabled={send.isPending || draft.text.trim() === '' || uploading.length > 0}
                onClick={submit}
              >
                <Send size={14} aria-hidden />
                Send
              </Button>
            </div>
          </div>
        </div>
      </Tabs>
    </section>
  );
}
