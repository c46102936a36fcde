import { useBlocker } from '@tanstack/react-router';
import { LEAVE_UNSAVED } from '../../ui/use-unsaved-changes';

/**
 * `useUnsavedChanges` for a page whose tabs are in its address (`?tab=hours`): moving between
 * the tabs keeps the form, so only leaving the page (another path, closing the tab) asks first.
 */
export function useUnsavedPage(dirty: boolean): void {
  useBlocker({
    shouldBlockFn: ({ current, next }) => current.pathname !== next.pathname && !window.confirm(LEAVE_UNSAVED),
    enableBeforeUnload: () => dirty,
    disabled: !dirty,
  });
}
