import { useSyncExternalStore } from 'react';

const NARROW = '(max-width: 767px)';

/** Below Tailwind's `md`: phones get cards instead of columns. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(NARROW).matches,
  );
}
