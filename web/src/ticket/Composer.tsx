import { Lock } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { hasMailbox } from '../api/ticket-source';
import type { Ticket } from '../api/types';
import type { Me } from '../auth/session';
import { Tabs } from '../ui/Tabs';
import { ComposerFooter } from './ComposerFooter';
import { ComposerToolbar } from './ComposerToolbar';
import { replyDestination } from './chat-visitor';
import { DraftAttachments } from './DraftAttachments';
import type { ComposerMode } from './draft-storage';
import { MessageEditor } from './MessageEditor';
import { useComposerDraft } from './use-composer-draft';
import { useComposerSend } from './use-composer-send';
import { useDraftUploads } from './use-draft-uploads';
import { useMentionSuggestions } from './use-mention-suggestions';

const MODES = [
  { value: 'reply' as const, label: 'Reply' },
  { value: 'note' as const, label: 'Internal note', icon: <Lock size={13} aria-hidden /> },
];

/**
 * Reply (public: emailed to the requestor, or for a messenger chat sent to the chat) or internal
 * note, in markdown with a preview, @mentions, files by drop or paste, and macros. The draft lives
 * in the browser per ticket.
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
  const { draft, update, reset, preview, setPreview, textarea, insertMacro, removeAttachment } = useComposerDraft({
    ticket,
    me,
    onDraftChange,
  });
  const note = draft.mode === 'note';
  const mentions = useMentionSuggestions({ text: draft.text, note, selfId: me.user.id, textarea, update });
  const uploads = useDraftUploads(update);
  const { send, applyMacro, submit } = useComposerSend({
    ticket,
    ticketKey,
    draft,
    reset,
    uploading: uploads.uploading.length,
    onSent: () => setPreview(false),
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event)) {
      return;
    }
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      submit();
    }
  };

  const requestor =
    [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ') ||
    (hasMailbox(ticket.requestorEmail) ? ticket.requestorEmail : 'the visitor');
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
      onDrop={uploads.onDrop}
    >
      <Tabs
        label="Composer mode"
        value={draft.mode}
        onValueChange={(mode: ComposerMode) => {
          update((current) => ({ ...current, mode }));
          mentions.close();
        }}
        items={MODES}
        tone={{ reply: 'data-[state=active]:border-blue-600', note: 'data-[state=active]:border-amber-500' }}
      >
        <div className={note ? 'bg-amber-50/60 dark:bg-amber-950/20' : ''}>
          <ComposerToolbar
            preview={preview}
            onPreviewChange={setPreview}
            teamId={ticket.teamId}
            onInsertMacro={insertMacro}
            onApplyMacro={(macro) => applyMacro.mutate(macro)}
            applyingMacro={applyMacro.isPending}
            onAttach={(files) => void uploads.attach(files)}
          />
          <MessageEditor
            preview={preview}
            text={draft.text}
            note={note}
            requestor={requestor}
            textarea={textarea}
            mentions={mentions}
            onKeyDown={onKeyDown}
            onPaste={uploads.onPaste}
          />
          <DraftAttachments attachments={draft.attachments} uploading={uploads.uploading} onRemove={removeAttachment} />
          <ComposerFooter
            error={send.error ?? applyMacro.error ?? uploads.uploadError}
            note={note}
            replyGoesTo={replyDestination(ticket)}
            disabled={send.isPending || draft.text.trim() === '' || uploads.uploading.length > 0}
            onSend={submit}
          />
        </div>
      </Tabs>
    </section>
  );
}
