import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { OrganizationUser } from '../api/types';
import type { Draft } from './draft-storage';
import { activeMentionQuery, insertMention, type MentionQuery, matchMentionableUsers, mentionToken } from './mentions';
import { usersQuery } from './ticket-queries';

/**
 * @mentions in an internal note: the teammates matching the `@word` at the caret, the one the
 * arrow keys point at, and picking one into the text (the caret lands after it).
 */
export function useMentionSuggestions({
  text,
  note,
  selfId,
  textarea,
  update,
}: {
  text: string;
  note: boolean;
  /** The author, never offered: they are not told of their own note. */
  selfId: string;
  textarea: RefObject<HTMLTextAreaElement | null>;
  update: (change: (draft: Draft) => Draft) => void;
}) {
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [activeIndex, setActiveIndex] = useState(0);
  const pendingCaret = useRef<number | null>(null);
  const listId = useId();
  const users = useQuery({ ...usersQuery, enabled: note });

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
            users.data.filter((user) => user.id !== selfId),
            mention.query,
          )
        : [],
    [note, mention, users.data, selfId],
  );

  const setText = (next: string, caret: number) => {
    update((current) => ({ ...current, text: next }));
    setMention(activeMentionQuery(next, caret));
    setActiveIndex(0);
  };

  const track = (value: string, caret: number) => setMention(activeMentionQuery(value, caret));
  const close = () => setMention(null);

  const pick = (user: OrganizationUser) => {
    if (!mention || !textarea.current) {
      return;
    }
    const token = mentionToken(user, users.data ?? []);
    const caret = textarea.current.selectionStart;
    const next = insertMention(text, mention, caret, token);
    update((current) => ({ ...current, text: next.text, mentions: [...current.mentions, { id: user.id, token }] }));
    pendingCaret.current = next.caret;
    setMention(null);
  };

  /** Moves through, picks or dismisses the suggestions while they show; true when the key was theirs. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (suggestions.length === 0) {
      return false;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((index) => (index + step + suggestions.length) % suggestions.length);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      const user = suggestions[activeIndex] ?? suggestions[0];
      if (user) {
        pick(user);
      }
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setMention(null);
      return true;
    }
    return false;
  };

  return {
    listId,
    suggestions,
    activeIndex,
    activeUser: suggestions[activeIndex],
    expanded: suggestions.length > 0,
    setText,
    track,
    close,
    pick,
    onKeyDown,
  };
}

export type MentionSuggestions = ReturnType<typeof useMentionSuggestions>;
