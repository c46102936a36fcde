import { isTypingTarget, type KeyPress } from '../ui/keyboard';

/** The inbox's keyboard shortcuts, as the `?` dialog lists them. */
export const INBOX_SHORTCUTS = [
  { keys: ['j'], action: 'next', label: 'Move to the next ticket' },
  { keys: ['k'], action: 'previous', label: 'Move to the previous ticket' },
  { keys: ['Enter'], action: 'open', label: 'Open the ticket' },
  { keys: ['x'], action: 'toggle', label: 'Select or unselect the ticket' },
  { keys: ['e'], action: 'close', label: 'Close the selected tickets, or this one' },
  { keys: ['a'], action: 'assign', label: 'Assign the selected tickets, or this one' },
  { keys: ['/', 'Ctrl K'], action: 'search', label: 'Search tickets' },
  { keys: ['?'], action: 'help', label: 'Show these shortcuts' },
] as const;

export type ShortcutAction = (typeof INBOX_SHORTCUTS)[number]['action'];

interface TargetLike {
  tagName?: string;
  closest?: (selector: string) => unknown;
}

/** Working in a dialog or menu: keys belong to it, not to the inbox. */
function inOverlay(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  return typeof element?.closest === 'function' && Boolean(element.closest('[role="dialog"],[role="menu"],[role="listbox"]'));
}

function isActivatable(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  const tag = element?.tagName?.toUpperCase();
  return tag === 'A' || tag === 'BUTTON';
}

/** The inbox action of a key press, or null: modified keys, typing and open dialogs are left alone. */
export function inboxShortcut(press: KeyPress): Exclude<ShortcutAction, 'search'> | null {
  if (press.ctrlKey || press.metaKey || press.altKey || isTypingTarget(press.target) || inOverlay(press.target)) {
    return null;
  }
  switch (press.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'x':
      return 'toggle';
    case 'e':
      return 'close';
    case 'a':
      return 'assign';
    case '?':
      return 'help';
    case 'Enter':
      // Enter on a link or a button is that control's own.
      return isActivatable(press.target) ? null : 'open';
    default:
      return null;
  }
}
