import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { findPrincipalByKeyHash } from '../platform/users/api-key.repository.js';
import { hashApiKey, looksLikeApiKey } from '../platform/users/api-key.service.js';
import type { UserType } from '../platform/users/user.table.js';
import { AppError } from './errors.js';

/** Who is calling: the key's user and the organization every query is scoped to. */
export interface Principal {
  organizationId: string;
  userId: string;
  userType: UserType;
  apiKeyId: string;
  apiKeyPrefix: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Served without an API key (health, docs). */
    public?: boolean;
  }
}

export interface ApiKeyAuth {
  verify(rawKey: string): Promise<Principal | null>;
  /** An `onRequest` hook for an area: sets `request.principal` or throws UNAUTHENTICATED. */
  hook: onRequestAsyncHookHandler;
}

const MAX_CACHED_KEYS = 10_000;

/**
 * Verified keys are remembered for `ttlSeconds` so a busy client costs one lookup per interval,
 * not one per request; a revoked key therefore stops working within that interval on every
 * process. Unknown keys are not cached: they are random, so caching them only grows memory.
 */
export function createApiKeyAuth(deps: { db: Kysely<DB>; clock: Clock; ttlSeconds: number }): ApiKeyAuth {
  const cache = new Map<string, { principal: Principal; expiresAt: number }>();

  async function verify(rawKey: string): Promise<Principal | null> {
    if (!looksLikeApiKey(rawKey)) {
      return null;
    }
    const keyHash = hashApiKey(rawKey);
    const now = Date.now();
    const cached = cache.get(keyHash);
    if (cached && cached.expiresAt > now) {
      return cached.principal;
    }
    cache.delete(keyHash);
    const principal = (await findPrincipalByKeyHash(deps.db, keyHash)) ?? null;
    if (principal && deps.ttlSeconds > 0) {
      if (cache.size >= MAX_CACHED_KEYS) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) {
          cache.delete(oldest);
        }
      }
      cache.set(keyHash, { principal, expiresAt: now + deps.ttlSeconds * 1000 });
    }
    return principal;
  }

  const hook: onRequestAsyncHookHandler = async (request: FastifyRequest) => {
    if (request.routeOptions.config.public) {
      return;
    }
    const header = request.headers['x-api-key'];
    const rawKey = Array.isArray(header) ? header[0] : header;
    const principal = rawKey ? await verify(rawKey.trim()) : null;
    if (!principal) {
      throw new AppError({ code: 'UNAUTHENTICATED', message: 'A valid x-api-key header is required' });
    }
    request.principal = principal;
  };

  return { verify, hook };
}
