import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: the token of a session cookie or of an emailed link. */
export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Cheap shape check, so that garbage never reaches the hash or the database. */
export function looksLikeSecretToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** What the database keeps of a token: its SHA-256, hex. The token has 256 bits, so no salt or slow hash is needed. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session: derived from its token, so it needs no storage, cannot be computed
 * without the session token, and does not reveal it.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`switchboard-csrf:${sessionToken}`).digest('base64url');
}
