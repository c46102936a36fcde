import { useRef, useState } from 'react';

/**
 * The text of a field edited in place: what the user types while they edit it, else what is stored.
 *
 * The typing is held apart rather than copied from the stored value whenever that changes: an
 * optimistic value and its rollback can land in one render, and a copy made on change would then
 * keep showing the refused text. `finish` hands the text to save once (Enter and the blur it causes
 * are one edit), and `cancel` drops it so that the blur after Escape saves nothing.
 */
export function useFieldDraft(stored: string) {
  const [draft, setDraft] = useState<string | null>(null);
  const cancelled = useRef(false);
  return {
    value: draft ?? stored,
    edit: (text: string) => {
      cancelled.current = false;
      setDraft(text);
    },
    cancel: () => {
      cancelled.current = true;
      setDraft(null);
    },
    /** The text typed since the last save, or null when there is nothing to save. */
    finish: (): string | null => {
      const typed = cancelled.current ? null : draft;
      cancelled.current = false;
      setDraft(null);
      return typed;
    },
  };
}
