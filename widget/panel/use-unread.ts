import { useEffect, useState } from 'preact/hooks';
import { isFramed, tellLoader } from './parent';

/** The count and whether the loader shows the panel; one per panel, the same object on every render. */
function createUnreadCounter() {
  let shown = !isFramed;
  let unread = 0;
  const seen = () => shown && document.visibilityState === 'visible';
  const markRead = () => {
    if (unread > 0 && seen()) {
      unread = 0;
      tellLoader({ type: 'switchboard:unread', count: 0 });
    }
  };
  return {
    markRead,
    /** The loader showed (`true`) or hid the panel. */
    setShown(value: boolean): void {
      shown = value;
      markRead();
    },
    /** An answer arrived: unread unless the visitor has the panel in front of them; whether it is unread. */
    answerArrived(): boolean {
      if (seen()) {
        return false;
      }
      unread++;
      tellLoader({ type: 'switchboard:unread', count: unread });
      return true;
    },
  };
}

/**
 * Answers the visitor has not seen, counted while the panel is hidden (the loader said
 * `switchboard:close`, or the tab is in the background) and told to the loader
 * (`switchboard:unread`, its launcher's badge); back to zero once the visitor sees the panel
 * again. Standalone (not in the loader's iframe) the panel is always shown.
 */
export function useUnread() {
  const [counter] = useState(createUnreadCounter);
  useEffect(() => {
    document.addEventListener('visibilitychange', counter.markRead);
    return () => document.removeEventListener('visibilitychange', counter.markRead);
  }, [counter]);
  return counter;
}
