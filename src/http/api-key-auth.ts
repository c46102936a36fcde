import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import type { Principal } from '../lib/principal.js';
import type { RequestLimits } from './rate-limits.js';
import { checkCsrf, clearSessionCookies, isWrite, sessionTokenOf } from './session-auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Served without an API key (health, docs). */
    public?: boolean;
  }
}

/** How a raw key is found: the platform's users feature answers it (`apiKeyLookup`), app.ts passes it in. */
export interface ApiKeyLookup {
  /** The key's stored hash, or null when the text cannot be a key (so garbage never reaches the database). */
  keyHashOf(rawKey: string): string | null;
  /** The live key's caller, or undefined when no live key of a live user has that hash. */
  findPrincipal(keyHash: string): Promise<Principal | undefined>;
  /** Notes that the key was used (its "last used"); returns at once, cached or not, never failing the request. */
  recordUse?(principal: Principal): void;
}

export interface ApiKeyAuth {
  verify(rawKey: string): Promise<Principal | null>;
  /** The key's caller if it is remembered (what `verify` answers without a lookup), else undefined. */
  remembered(rawKey: string): Principal | undefined;
  /** Forgets the cached principals of the user's keys (a key revoked, the user disabled or given another role). */
  forgetUser(userId: string): void;
  /** Forgets every cached principal (listening for changes has restarted: some may have been missed). */
  forgetAll(): void;
}

/**
 * Authenticates one request: sets `request.principal`, or fails with UNAUTHENTICATED or
 * RATE_LIMITED. Undefined when it was done in the call (a remembered key), else a promise of it.
 */
export type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined;

const MAX_CACHED_KEYS = 10_000;

/**
 * Verified keys are remembered for `ttlSeconds` so a busy client costs one lookup per interval,
 * not one per request. What changes a key's caller (the key revoked, its user disabled, enabled or
 * given another role) makes every process forget the user's cached keys at once (`forgetUser`,
 * called by the credentials signal of `platform/users/credentials.signal.ts`), so the cache only
 * saves lookups while nothing changes. Unknown keys are not cached: they are random, so caching
 * them only grows memory.
 */
export function createApiKeyAuth(deps: { lookup: ApiKeyLookup; ttlSeconds: number }): ApiKeyAuth {
  const cache = new Map<string, { principal: Principal; expiresAt: number }>();
  /**
   * Counts the forgets: a lookup that was under way when one happened may have read the row before
   * the change committed, so its answer serves its own request but is not cached.
   */
  let forgets = 0;

  function remember(keyHash: string, principal: Principal, now: number): void {
    if (cache.size >= MAX_CACHED_KEYS) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) {
        cache.delete(oldest);
      }
    }
    cache.set(keyHash, { principal, expiresAt: now + deps.ttlSeconds * 1000 });
  }

  function rememberedByHash(keyHash: string, now: number): Principal | undefined {
    const cached = cache.get(keyHash);
    if (cached && cached.expiresAt > now) {
      deps.lookup.recordUse?.(cached.principal);
      return cached.principal;
    }
    return undefined;
  }

  async function verify(rawKey: string): Promise<Principal | null> {
    const keyHash = deps.lookup.keyHashOf(rawKey);
    if (keyHash === null) {
      return null;
    }
    const now = Date.now();
    const remembered = rememberedByHash(keyHash, now);
    if (remembered) {
      return remembered;
    }
    cache.delete(keyHash);
    const forgetsBefore = forgets;
    const principal = (await deps.lookup.findPrincipal(keyHash)) ?? null;
    if (principal && deps.ttlSeconds > 0 && forgets === forgetsBefore) {
      remember(keyHash, principal, now);
    }
    if (principal) {
      deps.lookup.recordUse?.(principal);
    }
    return principal;
  }

  return {
    verify,
    remembered(rawKey) {
      const keyHash = deps.lookup.keyHashOf(rawKey);
      return keyHash === null ? undefined : rememberedByHash(keyHash, Date.now());
    },
    forgetUser(userId) {
      forgets += 1;
      // A walk of at most MAX_CACHED_KEYS entries, on a change that is rare.
      for (const [keyHash, entry] of cache) {
        if (entry.principal.userId === userId) {
          cache.delete(keyHash);
        }
      }
    },
    forgetAll() {
      forgets += 1;
      cache.clear();
    },
  };
}

/** Signed-in browsers, for an area that accepts them besides API keys (the platform, which the console calls). */
export interface SessionCookies {
  /** The principal of a session token, or null when it is unknown, ended, or its user disabled. */
  verify(token: string): Promise<Principal | null>;
  config: Pick<Config, 'PUBLIC_BASE_URL'>;
}

/**
 * The `onRequest` hook of every area, and what answers requests that never reach a route: the
 * caller is identified before anything else about the request is judged. A missing or bad key
 * counts against its client address, and past the limit the answer is 429 instead of 401, so keys
 * cannot be guessed at speed; a valid key is then counted against its own per-key limit.
 *
 * With `sessions`, a request without a key may instead carry a session cookie, judged the same way
 * (a bad one counts against the address, and the browser is told to drop it); its writes must pass
 * the CSRF check. A request with both is judged by its key alone.
 */
export function createAuthenticate(auth: ApiKeyAuth, limits: RequestLimits, sessions?: SessionCookies): Authenticate {
  // A remembered key and no per-caller limit (the common case) is judged in the call itself, with
  // no promise: this runs on every request. Anything else is judged by `authenticateKey` or
  // `authenticateSession`, which may look up, count and refuse.
  return (request, reply) => {
    if (request.routeOptions.config?.public) {
      return undefined;
    }
    const header = request.headers['x-api-key'];
    const rawKey = Array.isArray(header) ? header[0] : header;
    const sessionToken = sessions && !rawKey ? sessionTokenOf(request) : undefined;
    if (sessions && sessionToken) {
      return authenticateSession(request, reply, sessions, sessionToken);
    }
    const key = rawKey?.trim();
    const remembered = key ? auth.remembered(key) : undefined;
    if (remembered && !limits.countsCallerRequests) {
      request.principal = remembered;
      return undefined;
    }
    return authenticateKey(request, reply, key, remembered);
  };

  async function authenticateKey(request: FastifyRequest, reply: FastifyReply, key: string | undefined, remembered?: Principal) {
    const principal = remembered ?? (key ? await auth.verify(key) : null);
    if (!principal) {
      await refuse(request, reply, 'Too many requests without a valid API key; retry later');
      throw new AppError({ code: 'UNAUTHENTICATED', message: 'A valid x-api-key header is required' });
    }
    request.principal = principal;
    if (limits.countsCallerRequests) {
      const verdict = await limits.countCallerRequest(request);
      if (verdict.exceeded) {
        throw rateLimited(reply, verdict.retryAfterSeconds, 'Too many requests for this API key; retry later');
      }
    }
  }

  async function authenticateSession(request: FastifyRequest, reply: FastifyReply, cookies: SessionCookies, token: string) {
    const principal = await cookies.verify(token);
    if (!principal) {
      clearSessionCookies(reply, request, cookies.config);
      await refuse(request, reply, 'Too many requests without a valid session; retry later');
      throw new AppError({ code: 'UNAUTHENTICATED', message: 'The session has ended or is not valid: sign in again' });
    }
    request.principal = principal;
    if (isWrite(request)) {
      checkCsrf(request, token, cookies.config);
    }
    const verdict = await limits.countCallerRequest(request);
    if (verdict.exceeded) {
      throw rateLimited(reply, verdict.retryAfterSeconds, 'Too many requests for this session; retry later');
    }
  }

  /** Counts a failed authentication against the client address; past the limit, 429. */
  async function refuse(request: FastifyRequest, reply: FastifyReply, message: string) {
    const verdict = await limits.countFailedAuthentication(request);
    if (verdict.exceeded) {
      throw rateLimited(reply, verdict.retryAfterSeconds, message);
    }
  }
}

function rateLimited(reply: FastifyReply, retryAfterSeconds: number, message: string): AppError {
  reply.header('retry-after', String(retryAfterSeconds));
  return new AppError({ code: 'RATE_LIMITED', message });
}
