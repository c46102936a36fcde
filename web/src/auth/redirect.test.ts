import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps a path of the console', () => {
    expect(safeRedirect('/tickets/01J?x=1')).toBe('/tickets/01J?x=1');
  });
  it('refuses other sites and protocol-relative or backslashed paths', () => {
    for (const redirect of ['https://evil.test/', '//evil.test/', '/\\evil.test', 'javascript:alert(1)', undefined, '']) {
      expect(safeRedirect(redirect)).toBe('/');
    }
  });
});
