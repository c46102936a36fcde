/** What every keyboard shortcut of the console asks of a key press: which key, and whether it was typed into a field. */

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

/** Typing in a field: keys belong to it, not to a shortcut. */
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
