import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../ui/keyboard';
import { isSearchShortcut } from './search-shortcut';

const element = (tagName: string, options: { editable?: boolean; inDialog?: boolean; type?: string } = {}) =>
  ({
    tagName,
    type: options.type,
    isContentEditable: options.editable ?? false,
    closest: (selector: string) => (options.inDialog && selector.includes('dialog') ? {} : null),
  }) as unknown as EventTarget;

const press = (key: string, target: EventTarget | null = element('BODY'), modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...modifiers,
});

describe('the command bar shortcut', () => {
  it('is / outside fields and Ctrl-K or ⌘K anywhere', () => {
    expect(isSearchShortcut(press('/'))).toBe(true);
    expect(isSearchShortcut(press('/', element('INPUT')))).toBe(false);
    expect(isSearchShortcut(press('k', element('INPUT'), { ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(press('K', null, { metaKey: true }))).toBe(true);
    expect(isSearchShortcut(press('k'))).toBe(false);
  });
});
