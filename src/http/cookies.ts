/**
 * The little of RFC 6265 the session needs: reading the `Cookie` header and writing `Set-Cookie`.
 * Values here are base64url tokens, so no encoding is applied either way.
 */

/** The cookies of a `Cookie` header by name; the first of a repeated name wins, as browsers send the most specific first. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) {
    return cookies;
  }
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      continue;
    }
    const name = pair.slice(0, equals).trim();
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1);
    }
    if (name && !cookies.has(name)) {
      cookies.set(name, value);
    }
  }
  return cookies;
}

export interface CookieOptions {
  /** Seconds until the browser drops it; 0 deletes it. */
  maxAgeSeconds: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Lax' | 'Strict';
  path: string;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`];
  if (options.httpOnly) {
    parts.push('HttpOnly');
  }
  if (options.secure) {
    parts.push('Secure');
  }
  parts.push(`SameSite=${options.sameSite}`);
  return parts.join('; ');
}
