import { useBlocker } from '@tanstack/react-router';

export const LEAVE_UNSAVED = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Asks before a page with unsaved changes is left, by a link of the console (a confirm) or by
 * closing or reloading the tab (the browser's own prompt). A change of the address's search alone
 * (a tab of the page, `?tab=hours`) stays on the page and keeps the form, so it does not ask.
 */
export function useUnsavedChanges(dirty: boolean): void {
  useBlocker({
    shouldBlockFn: ({ current, next }) => current.pathname !== next.pathname && !window.confirm(LEAVE_UNSAVED),
    enableBeforeUnload: () => dirty,
    disabled: !dirty,
  });
}
