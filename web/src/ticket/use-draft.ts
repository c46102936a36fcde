import { useCallback, useEffect, useRef, useState } from 'react';
import { type Draft, isDraftEmpty, loadDraft, newDraft, saveDraft } from './draft-storage';

/**
 * The ticket's draft, restored from the browser and written back on every change, so a reload or a
 * trip through sign-in finds it as it was. `reset` starts a new draft (a new deduplication key)
 * once the old one is sent.
 */
export function useDraft(ticketId: string) {
  const [draft, setDraft] = useState<Draft>(() => loadDraft(localStorage, ticketId, Date.now()) ?? newDraft('reply', Date.now()));
  // Another ticket in the same page (a link from the side panel): its own draft.
  const loadedFor = useRef(ticketId);
  useEffect(() => {
    if (loadedFor.current !== ticketId) {
      loadedFor.current = ticketId;
      setDraft(loadDraft(localStorage, ticketId, Date.now()) ?? newDraft('reply', Date.now()));
    }
  }, [ticketId]);
  const update = useCallback(
    (change: (draft: Draft) => Draft) =>
      setDraft((current) => {
        const next = { ...change(current), savedAt: Date.now() };
        saveDraft(localStorage, ticketId, next);
        return next;
      }),
    [ticketId],
  );
  const reset = useCallback(
    (mode: Draft['mode']) => {
      const next = newDraft(mode, Date.now());
      saveDraft(localStorage, ticketId, next);
      setDraft(next);
    },
    [ticketId],
  );
  return { draft, update, reset, empty: isDraftEmpty(draft) };
}
