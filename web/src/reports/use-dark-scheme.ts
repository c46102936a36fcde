import { useSyncExternalStore } from 'react';

const DARK = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the console is dark now: it follows the system (Tailwind's `dark:` is the media query),
 * and a canvas has no CSS to follow it with, so the chart redraws in the other colours on a change.
 */
export function useDarkScheme(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(DARK).matches);
}
