import { isTypingTarget, type KeyPress } from '../ui/keyboard';

/** Opens the command bar from anywhere in the console: `/` or Ctrl-K (⌘K), unless typing. */
export function isSearchShortcut(press: KeyPress): boolean {
  if ((press.ctrlKey || press.metaKey) && !press.altKey && press.key.toLowerCase() === 'k') {
    return true;
  }
  return press.key === '/' && !press.ctrlKey && !press.metaKey && !press.altKey && !isTypingTarget(press.target);
}
