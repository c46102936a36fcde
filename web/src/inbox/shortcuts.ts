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

/** The parts of a key press a shortcut depends on (a `KeyboardEvent` has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

interface TargetLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
}

/** Inputs that take no text: a shortcut pressed while one has the focus (a row's checkbox) still counts. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);

/** Typing in a field, or working in a dialog or menu: keys belong to it, not to the inbox. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  if (!element || typeof element.tagName !== 'string') {
    return false;
  }
  const tag = element.tagName.toUpperCase();
  if (tag === 'INPUT') {
    return !NOT_TYPED.has(String(element.type ?? 'text').toLowerCase());
  }
  return tag === 'TEXTAREA' || tag === 'SELECT' || element.isContentEditable === true;
}

function inOverlay(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  return typeof element?.closest === 'function' && Boolean(element.closest('[role="dialog"],[role="menu"],[role="listbox"]'));
}

function isActivatable(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  const tag = element?.tagName?.toUpperCase();
  return tag === 'A' || tag === 'BUTTON';
}

/** Opens the command bar from anywhere in the console: `/` or Ctrl-K (⌘K), unless typing. */
export function isSearchShortcut(press: KeyPress): boolean {
  if ((press.ctrlKey || press.metaKey) && !press.altKey && press.key.toLowerCase() === 'k') {
    return true;
  }
  return press.key === '/' && !press.ctrlKey && !press.metaKey && !press.altKey && !isTypingTarget(press.target);
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
