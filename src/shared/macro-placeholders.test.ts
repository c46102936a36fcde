import { describe, expect, it } from 'vitest';
import { fillPlaceholders, isMacroPlaceholder, MACRO_PLACEHOLDERS, placeholderNames } from './macro-placeholders.js';

describe('macro placeholders, as the API and the console read them', () => {
  it('names the placeholders a template uses, spaces inside the braces trimmed', () => {
    expect(placeholderNames('Hi {{ requestor.firstName }}, {{ticket.identifier}} {{nope}} {not}')).toEqual([
      'requestor.firstName',
      'ticket.identifier',
      'nope',
    ]);
  });

  it('knows the listed placeholders only, not names an object inherits', () => {
    expect(Object.keys(MACRO_PLACEHOLDERS).every(isMacroPlaceholder)).toBe(true);
    expect(isMacroPlaceholder('nope')).toBe(false);
    expect(isMacroPlaceholder('toString')).toBe(false);
  });

  it('keeps a placeholder without a value as written for the console, and blanks it for the API', () => {
    expect(fillPlaceholders('[{{ nope }}] {{ticket.title}}', { 'ticket.title': '# Hi' })).toBe('[{{ nope }}] \\# Hi');
    expect(fillPlaceholders('[{{ nope }}] {{ticket.title}}', { 'ticket.title': null }, 'blank')).toBe('[] ');
  });
});
