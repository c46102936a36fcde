import { describe, expect, it } from 'vitest';
import { returnPathWithin } from './return-path.js';

describe('the path to return to after signing in', () => {
  it.each([
    ['/hc/acme/', '/hc/acme/'],
    ['/hc/acme/articles/12-billing', '/hc/acme/articles/12-billing'],
    ['/hc/acme/search?q=refund&page=2', '/hc/acme/search?q=refund&page=2'],
    ['/hc/acme/./articles/../collections/3-x', '/hc/acme/collections/3-x'],
  ])('keeps %j within the help center as %j', (next, kept) => {
    expect(returnPathWithin('/hc/acme', next)).toBe(kept);
  });

  it.each([
    undefined,
    42,
    '',
    'https://evil.example/hc/acme/',
    '//evil.example/hc/acme/',
    '/\\evil.example',
    '\\\\evil.example',
    '/hc/acme\\..\\other/',
    'javascript:alert(1)',
    '/hc/acme',
    '/hc/acmeother/',
    '/hc/other/',
    '/hc/acme/../other/',
    '/hc/acme/%2e%2e/other/',
    '/hc/acme/%2E%2E/other/',
    '/hc/acme/\u0000',
    '/hc/acme/\n/x',
    `/hc/acme/${'a'.repeat(2_000)}`,
  ])('refuses %j', (next) => {
    expect(returnPathWithin('/hc/acme', next)).toBeNull();
  });

  it('on a custom domain any path of the host is within, and other hosts never are', () => {
    expect(returnPathWithin('', '/articles/12-billing')).toBe('/articles/12-billing');
    expect(returnPathWithin('', '/')).toBe('/');
    expect(returnPathWithin('', '//evil.example/')).toBeNull();
    expect(returnPathWithin('', '/\\evil.example/')).toBeNull();
    expect(returnPathWithin('', 'evil.example')).toBeNull();
  });
});
