import { hash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ApiKeyLookup } from '../../http/api-key-auth.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { findPrincipalByKeyHash, insertApiKey, revokeApiKeyByPrefix, touchApiKey } from './api-key.repository.js';

const KEY_PATTERN = /^sbk_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 'sbk_'.length + 8;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function hashApiKey(key: string): string {
  // The one-shot hash: a third of createHash's cost, and this runs on every request.
  return hash('sha256', key, 'hex');
}

/** Cheap shape check so garbage never reaches the hash or the database. */
export function looksLikeApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** `sbk_<8 visible chars>_<256 random bits>`: the prefix identifies it, the rest is the secret. */
export function generateApiKey(): { apiKey: string; prefix: string; keyHash: string } {
  const prefixBytes = randomBytes(8);
  const visible = Array.from(prefixBytes, (byte) => BASE32[byte % 32]).join('');
  const apiKey = `sbk_${visible}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, prefix: apiKey.slice(0, PREFIX_LENGTH), keyHash: hashApiKey(apiKey) };
}

export interface IssuedApiKey {
  apiKey: string;
  prefix: string;
  name: string | null;
  createdAt: string;
}

export async function issueApiKey(
  db: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  owner: { organizationId: string; userId: string; name?: string | null },
): Promise<IssuedApiKey> {
  const name = owner.name?.trim() || null;
  const { apiKey, prefix, keyHash } = generateApiKey();
  const createdAt = deps.clock.now().toISOString();
  await insertApiKey(db, {
    id: deps.ids.ulid(),
    organization_id: owner.organizationId,
    user_id: owner.userId,
    prefix,
    name,
    key_hash: keyHash,
    created_at: createdAt,
    last_used_at: null,
    revoked_at: null,
  });
  return { apiKey, prefix, name, createdAt };
}

/** Revokes the live key with this prefix; answers its owner's id, or null when no live key has it. */
export async function revokeApiKey(
  db: Kysely<DB>,
  clock: Clock,
  prefix: string,
  scope: { organizationId?: string; userId?: string } = {},
): Promise<string | null> {
  const [owner] = await revokeApiKeyByPrefix(db, prefix, clock.now().toISOString(), scope);
  return owner ?? null;
}

/** `last_used_at` is written at most this often per key, so the hot path stays a read. */
const RECORD_USE_EVERY_MS = 60_000;
const MAX_REMEMBERED_USES = 10_000;

/**
 * The lookup the API-key hook of http/ is handed: the key's hash, the live caller holding it, and
 * the record of its use. A use is written at most once a minute per key: this process remembers
 * when it last wrote, and the UPDATE's own condition keeps the other processes to the same minute.
 */
export function apiKeyLookup(db: Kysely<DB>, deps: { clock?: Clock; log?: Pick<FastifyBaseLogger, 'warn'> } = {}): ApiKeyLookup {
  const clock = deps.clock ?? systemClock;
  const lastRecorded = new Map<string, number>();
  return {
    keyHashOf: (rawKey) => (looksLikeApiKey(rawKey) ? hashApiKey(rawKey) : null),
    findPrincipal: (keyHash) => findPrincipalByKeyHash(db, keyHash),
    recordUse: (principal) => {
      const { apiKeyId } = principal;
      const now = clock.now().getTime();
      if (!apiKeyId || now - (lastRecorded.get(apiKeyId) ?? Number.NEGATIVE_INFINITY) < RECORD_USE_EVERY_MS) {
        return;
      }
      if (lastRecorded.size >= MAX_REMEMBERED_USES) {
        lastRecorded.clear();
      }
      lastRecorded.set(apiKeyId, now);
      const at = new Date(now).toISOString();
      const staleBefore = new Date(now - RECORD_USE_EVERY_MS).toISOString();
      // Not awaited: the request does not wait for its bookkeeping, and a failed write only leaves
      // "last used" a minute staler.
      touchApiKey(db, apiKeyId, at, staleBefore).catch((error: unknown) => {
        lastRecorded.delete(apiKeyId);
        deps.log?.warn({ err: error, apiKeyId }, 'recording the use of an API key failed');
      });
    },
  };
}
