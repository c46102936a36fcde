import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import {
  decrementAttemptCounter,
  deleteEndedAttemptCounters,
  incrementAttemptCounter,
} from '../db/attempt-counter.repository.js';
import type { DB } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

/** One key's count after an attempt was added, and the time left in its window. */
export interface CountedAttempt {
  count: number;
  msLeft: number;
}

/**
 * Counters of attempts per key over a fixed window, shared by every process: each increment is
 * one atomic step that answers the new count, so attempts sent together are counted as if sent one
 * after the other. An attempt can be given back (a sign-in that turned out right).
 */
export interface AttemptCounter {
  /** Adds one to each key; answers each key's count, in order. Null when the store cannot be reached. */
  increment(keys: string[], windowMs: number): Promise<CountedAttempt[] | null>;
  /** Takes one back from each key, in its current window. */
  decrement(keys: string[]): Promise<void>;
}

/** What the stores keep: the SHA-256 of the key, so neither holds anyone's address or email. */
const stored = (key: string) => createHash('sha256').update(key).digest('hex');

/** How often a process deletes the rows of ended windows, at most. */
const PRUNE_EVERY_MS = 60_000;

/** In the database, for every process on it: an upsert answering the new count (`attempt_counters`). */
export function databaseAttemptCounter(deps: { db: Kysely<DB>; clock: Clock }): AttemptCounter {
  let prunedAt = Number.NEGATIVE_INFINITY;
  return {
    increment: async (keys, windowMs) => {
      const now = deps.clock.now();
      const at = { now: now.toISOString(), windowEndsAt: new Date(now.getTime() + windowMs).toISOString() };
      if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now.getTime();
        await deleteEndedAttemptCounters(deps.db, at.now);
      }
      const counted: CountedAttempt[] = [];
      for (const key of keys) {
        const row = await incrementAttemptCounter(deps.db, stored(key), at);
        counted.push({ count: Number(row.count), msLeft: Date.parse(row.window_ends_at) - now.getTime() });
      }
      return counted;
    },
    decrement: async (keys) => {
      const now = deps.clock.now().toISOString();
      for (const key of keys) {
        await decrementAttemptCounter(deps.db, stored(key), now);
      }
    },
  };
}

/** INCR, with the window's expiry set by the increment that starts it, and the time left. */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;
/** DECR only while the key lives and is above zero, so a give-back never outlives its window. */
const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * In Redis (`REDIS_URL`), like the other rate limits. A Redis that cannot be reached counts
 * nothing (null), as the other limits do: an outage must not stop people signing in.
 */
export function redisAttemptCounter(redis: Redis, prefix: string): AttemptCounter {
  return {
    increment: async (keys, windowMs) => {
      try {
        const counted: CountedAttempt[] = [];
        for (const key of keys) {
          const [count, ttl] = (await redis.eval(INCREMENT, 1, `${prefix}${stored(key)}`, windowMs)) as [number, number];
          counted.push({ count, msLeft: ttl });
        }
        return counted;
      } catch {
        return null;
      }
    },
    decrement: async (keys) => {
      for (const key of keys) {
        await redis.eval(DECREMENT, 1, `${prefix}${stored(key)}`).catch(() => undefined);
      }
    },
  };
}
