import { useEffect, useRef, useState } from 'react';
import { fillPlaceholders } from '../../../src/shared/macro-placeholders';
import type { Macro, Ticket } from '../api/types';
import type { Me } from '../auth/session';
import { placeholderValues } from './macro-placeholders';
import { useDraft } from './use-draft';

/**
 * The composer's draft and how it is edited: the text box, the write/preview switch, macros
 * inserted into the text, and files taken off it. Tells the page whether something is being written.
 */
export function useComposerDraft({
  ticket,
  me,
  onDraftChange,
}: {
  ticket: Ticket;
  me: Me;
  onDraftChange: (writing: boolean) => void;
}) {
  const { draft, update, reset, empty } = useDraft(ticket.id);
  const [preview, setPreview] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => onDraftChange(!empty), [empty, onDraftChange]);

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

  const removeAttachment = (id: string) =>
    update((current) => ({ ...current, attachments: current.attachments.filter((file) => file.id !== id) }));

  return { draft, update, reset, preview, setPreview, textarea, insertMacro, removeAttachment };
}
