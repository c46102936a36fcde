import { useEffect, useRef, useState } from 'react';
import { EMPTY_SELECTION, prune, type Selection } from './selection';

/**
 * The selected and focused tickets of the list: kept to the rows still shown as the list changes,
 * and started afresh when another view or filter makes it another list (`queryJson`).
 */
export function useInboxSelection(ids: readonly string[], queryJson: string) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const previousIds = useRef(ids);
  useEffect(() => {
    const previous = previousIds.current;
    previousIds.current = ids;
    setSelection((current) => prune(current, ids, previous));
  }, [ids]);
  // Another view or filter is another list: start afresh.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is the trigger, not an input.
  useEffect(() => setSelection(EMPTY_SELECTION), [queryJson]);
  return [selection, setSelection] as const;
}
