import type { ChatVisitorView } from './use-chat-visitor';

/**
 * "Visitor is typing…" above the composer. The live region is there from the start, so a screen
 * reader announces the words when they appear.
 */
export function VisitorTyping({ visitor }: { visitor: ChatVisitorView }) {
  const typing = visitor.presence?.online === true && visitor.presence.typing;
  return (
    <p aria-live="polite" className="min-h-4 px-1 text-xs text-zinc-600 italic dark:text-zinc-400">
      {typing ? 'Visitor is typing…' : ''}
    </p>
  );
}
