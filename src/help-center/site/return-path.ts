/**
 * Where a reader goes back to after signing in: a `next` path, taken only when it stays within the
 * help center (`base`, `/hc/acme` on the shared host or `` on its own domain). The path is
 * resolved as a browser would (dot segments, `%2e`, backslashes), and what is kept is that
 * resolved path, so `//evil.example`, `/hc/acme/../other` or `https://evil.example` never leave.
 */
const MAX_LENGTH = 2_000;
const PROBE_ORIGIN = 'http://return-path.invalid';

export function returnPathWithin(base: string, next: unknown): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > MAX_LENGTH) {
    return null;
  }
  // Control characters and backslashes (which browsers read as slashes) are refused outright.
  if (!next.startsWith('/') || /[\\\p{Cc}]/u.test(next)) {
    return null;
  }
  let resolved: URL;
  try {
    resolved = new URL(next, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (resolved.origin !== PROBE_ORIGIN || !resolved.pathname.startsWith(`${base}/`)) {
    return null;
  }
  return `${resolved.pathname}${resolved.search}`;
}
