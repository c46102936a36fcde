import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../ui/keyboard';
import { isSearchShortcut } from './search-shortcut';

/** A key pressed with the focus on an element of that tag (the page's body unless said). */
function keyOn(key: string, tagName = 'BODY', modifiers: { ctrlKey?: boolean; metaKey?: boolean } = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, target: { tagName } as unknown as EventTarget, ...modifiers };
}

describe('the command bar shortcut', () => {
  it('is / outside fields and Ctrl-K or ⌘K anywhere', () => {
    expect(isSearchShortcut(keyOn('/'))).toBe(true);
    expect(isSearchShortcut(keyOn('/', 'INPUT'))).toBe(false);
    expect(isSearchShortcut(keyOn('k', 'INPUT', { ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut({ ...keyOn('K', 'BODY', { metaKey: true }), target: null })).toBe(true);
    expect(isSearchShortcut(keyOn('k'))).toBe(false);
  });
});
