import type { ClipboardEvent, KeyboardEvent, RefObject } from 'react';
import { Markdown } from '../ui/Markdown';
import { MentionList } from './MentionList';
import type { MentionSuggestions } from './use-mention-suggestions';

/** The message being written, with the teammates an @mention may name; or, in preview, the message rendered. */
export function MessageEditor({
  preview,
  text,
  note,
  requestor,
  textarea,
  mentions,
  onKeyDown,
  onPaste,
}: {
  preview: boolean;
  text: string;
  note: boolean;
  /** Who a reply goes to, for the placeholder. */
  requestor: string;
  textarea: RefObject<HTMLTextAreaElement | null>;
  mentions: MentionSuggestions;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  onPaste: (event: ClipboardEvent) => void;
}) {
  const { expanded, activeUser, listId } = mentions;
  return (
    <div className="relative p-2">
      {preview ? (
        <div className="min-h-28 rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-700">
          {text.trim() === '' ? (
            <p className="text-sm text-zinc-500">Nothing to preview.</p>
          ) : (
            <Markdown markdown={text} label="Preview" />
          )}
        </div>
      ) : (
        <>
          <textarea
            ref={textarea}
            aria-label="Message"
            value={text}
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
            onChange={(event) => mentions.setText(event.target.value, event.target.selectionStart)}
            onSelect={(event) => mentions.track(event.currentTarget.value, event.currentTarget.selectionStart)}
            onBlur={mentions.close}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
          {expanded ? (
            <MentionList id={listId} users={mentions.suggestions} activeIndex={mentions.activeIndex} onPick={mentions.pick} />
          ) : null}
        </>
      )}
    </div>
  );
}
