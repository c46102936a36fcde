import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../ui/keyboard';
import { inboxShortcut } from './shortcuts';

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

describe('inbox shortcuts', () => {
  it('maps j, k, Enter, x, e, a and ? to their actions', () => {
    expect(['j', 'k', 'Enter', 'x', 'e', 'a', '?', 'q'].map((key) => inboxShortcut(press(key)))).toEqual([
      'next',
      'previous',
      'open',
      'toggle',
      'close',
      'assign',
      'help',
      null,
    ]);
  });

  it('ignores keys typed in fields, in dialogs and with modifiers', () => {
    for (const target of [element('INPUT'), element('textarea'), element('SELECT'), element('DIV', { editable: true })]) {
      expect(inboxShortcut(press('e', target))).toBeNull();
    }
    expect(inboxShortcut(press('e', element('INPUT', { type: 'search' })))).toBeNull();
    expect(inboxShortcut(press('j', element('BUTTON', { inDialog: true })))).toBeNull();
    expect(inboxShortcut(press('e', undefined, { ctrlKey: true }))).toBeNull();
  });

  it("still works from a row's checkbox, which takes no text", () => {
    expect(inboxShortcut(press('j', element('INPUT', { type: 'checkbox' })))).toBe('next');
    expect(inboxShortcut(press('x', element('input', { type: 'CHECKBOX' })))).toBe('toggle');
  });

  it('leaves Enter to a focused link or button, but not to a checkbox row', () => {
    expect(inboxShortcut(press('Enter', element('A')))).toBeNull();
    expect(inboxShortcut(press('Enter', element('BUTTON')))).toBeNull();
    expect(inboxShortcut(press('Enter', element('DIV')))).toBe('open');
  });
});
