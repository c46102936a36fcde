import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import { csrfTokenFor } from '../lib/secret-token.js';
import { parseCookies, serializeCookie } from './cookies.js';

/**
 * How a browser carries a session: an `HttpOnly` cookie with the session's token (the server keeps
 * only its hash), and beside it a cookie the console's script can read, holding the CSRF token
 * that writes must echo in `x-csrf-token`. The CSRF token is derived from the session token
 * (`csrfTokenFor`), so a cookie planted by a sibling subdomain cannot stand in for it.
 */
export const SESSION_COOKIE = 'sb_session';
export const CSRF_COOKIE = 'sb_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The session token the request's cookie carries, if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return parseCookies(request.headers.cookie).get(SESSION_COOKIE) || undefined;
}

/** `Secure` when the service is published over HTTPS, or this request came over it (directly, or per a trusted proxy). */
function isSecure(request: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): boolean {
  return config.PUBLIC_BASE_URL?.startsWith('https://') === true || request.protocol === 'https';
}

/** Sets both cookies of a new session, until its absolute end. */
export function setSessionCookies(
  reply: FastifyReply,
  request: FastifyRequest,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  session: { token: string; expiresAt: string; now: Date },
): void {
  const maxAgeSeconds = (Date.parse(session.expiresAt) - session.now.getTime()) / 1000;
  const common = { maxAgeSeconds, secure: isSecure(request, config), sameSite: 'Lax', path: '/' } as const;
  reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, session.token, { ...common, httpOnly: true }),
    serializeCookie(CSRF_COOKIE, csrfTokenFor(session.token), { ...common, httpOnly: false }),
  ]);
}

/** Tells the browser to drop both cookies (signed out, or the session is no longer valid). */
export function clearSessionCookies(reply: FastifyReply, request: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): void {
  const common = { maxAgeSeconds: 0, secure: isSecure(request, config), sameSite: 'Lax', path: '/' } as const;
  reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, '', { ...common, httpOnly: true }),
    serializeCookie(CSRF_COOKIE, '', { ...common, httpOnly: false }),
  ]);
}

export function isWrite(request: FastifyRequest): boolean {
  return WRITE_METHODS.has(request.method);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A write signed in with a cookie must prove it comes from the console: the `x-csrf-token` header
 * equal to the CSRF cookie and to the token derived from the session (a page on another site can
 * neither read the cookie nor set the header), and an `Origin` (else `Referer`), when the browser
 * sends one, of this service.
 */
export function checkCsrf(request: FastifyRequest, sessionToken: string, config: Pick<Config, 'PUBLIC_BASE_URL'>): void {
  checkOrigin(request, config);
  const header = request.headers[CSRF_HEADER];
  const sent = Array.isArray(header) ? header[0] : header;
  const cookie = parseCookies(request.headers.cookie).get(CSRF_COOKIE);
  const expected = csrfTokenFor(sessionToken);
  if (!sent || !cookie || !sameText(sent, cookie) || !sameText(sent, expected)) {
    throw AppError.forbidden(
      `A write signed in with a session cookie needs the ${CSRF_COOKIE} cookie's value in the ${CSRF_HEADER} header`,
    );
  }
}

/**
 * Refuses a request whose `Origin` (or, without one, `Referer`) names another site than this
 * service: `PUBLIC_BASE_URL` when set, else the address the request was sent to. A request with
 * neither header (not a browser's cross-site write) passes.
 */
export function checkOrigin(request: FastifyRequest, config: Pick<Config, 'PUBLIC_BASE_URL'>): void {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = origin ?? (referer ? originOf(referer) : undefined);
  if (origin === undefined && referer === undefined) {
    return;
  }
  const allowed = config.PUBLIC_BASE_URL ? originOf(config.PUBLIC_BASE_URL) : `${request.protocol}://${request.host}`;
  if (claimed === undefined || claimed.toLowerCase() !== allowed?.toLowerCase()) {
    throw AppError.forbidden('Cross-site request refused: its Origin is not this service');
  }
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}
