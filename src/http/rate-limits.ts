import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/database.js';
import { countAgainstBudgets } from '../lib/attempt-budgets.js';
import type { Clock } from '../lib/clock.js';
import { type AttemptCounter, databaseAttemptCounter, redisAttemptCounter } from './attempt-counters.js';

/** What a limiter says about one request. */
export interface LimitVerdict {
  exceeded: boolean;
  /** Seconds until the window resets, for `retry-after`. */
  retryAfterSeconds: number;
}

export interface RequestLimits {
  /** Counts one failed authentication from the request's client address. */
  countFailedAuthentication(request: FastifyRequest): Promise<LimitVerdict>;
  /**
   * Counts one request of the authenticated caller (its API key, or its session); never exceeded
   * when per-caller limits are off.
   */
  countCallerRequest(request: FastifyRequest): Promise<LimitVerdict>;
  /** Whether callers have a request limit at all (`countCallerRequest` answers "not exceeded" otherwise). */
  countsCallerRequests: boolean;
  /**
   * Counts one sign-in attempt against the request's address and the account (an email) before its
   * password is checked, one atomic step per counter, so attempts sent together are limited as if
   * sent one after the other. Past either budget the attempt is refused and counts nothing.
   * `giveBack` returns an attempt whose password was right: people who sign in never use up the
   * budget of a shared address (an office behind one NAT), and only failures stay counted.
   */
  countSignInAttempt(request: FastifyRequest, account: string): Promise<SignInAttemptVerdict>;
  /** Counts one password-reset request against the address and the account (each request, so mail cannot be sent at will). */
  countPasswordResetRequest(request: FastifyRequest, account: string): Promise<LimitVerdict>;
  /** The attempt counters themselves (Redis, else the database), for limits a service keeps (help-center sign-in links). */
  attempts: AttemptCounter;
}

/** A counted sign-in attempt, which a right password gives back. */
export interface SignInAttemptVerdict extends LimitVerdict {
  giveBack(): Promise<void>;
}

const WINDOW_MS = 60_000;
/** The window of sign-in failures and password-reset requests. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
const NOT_EXCEEDED: LimitVerdict = { exceeded: false, retryAfterSeconds: 0 };

/**
 * Rate limits with `@fastify/rate-limit`, used as limiter functions called by the authentication
 * hook and the sign-in routes rather than as a hook of every route: failed authentications are
 * counted per client address (`AUTH_FAILURES_PER_MINUTE`), so guessing keys is slowed while valid
 * keys from the same address keep working; requests of a key or a session are counted per caller
 * (`RATE_LIMIT_PER_MINUTE`, off by default). Counters live in Redis when `REDIS_URL` is set, so
 * every process shares them; otherwise in this process's memory, a window per listener.
 *
 * Sign-in attempts and password-reset requests are counted per address and per email over 15
 * minutes (`SIGN_IN_FAILURES_PER_ADDRESS`, `…_PER_ACCOUNT`) by `attempt-counters.ts`, in Redis or
 * else in the database, each attempt before its password is checked.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Config,
  stores: { db: Kysely<DB>; clock: Clock },
): Promise<RequestLimits> {
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, app) : undefined;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    nameSpace: 'switchboard-rate-',
    // A Redis outage must not take authentication down with it: count nothing and let requests in.
    skipOnError: true,
    ...(redis ? { redis } : {}),
  });

  const failedAuthentications = app.createRateLimit({
    max: config.AUTH_FAILURES_PER_MINUTE,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  const callerRequests = config.RATE_LIMIT_PER_MINUTE
    ? app.createRateLimit({
        max: config.RATE_LIMIT_PER_MINUTE,
        keyGenerator: ({ principal }) =>
          principal.apiKeyId ? `api-key:${principal.apiKeyId}` : `session:${principal.sessionId ?? ''}`,
      })
    : null;

  type Limiter = ReturnType<typeof app.createRateLimit>;
  const verdict = (result: Awaited<ReturnType<Limiter>>): LimitVerdict =>
    result.isAllowed ? NOT_EXCEEDED : { exceeded: result.isExceeded, retryAfterSeconds: Math.max(1, result.ttlInSeconds) };

  // Sign-ins and password resets are counted in Redis or, without it, in the database: never in
  // one process's memory, which several processes on one PostgreSQL would each keep apart.
  const attempts = redis ? redisAttemptCounter(redis, 'switchboard-attempts-') : databaseAttemptCounter(stores);
  const budgets = (kind: 'sign-in' | 'password-reset', request: FastifyRequest, account: string) =>
    [
      { key: `${kind}-address:${request.ip}`, max: config.SIGN_IN_FAILURES_PER_ADDRESS },
      { key: `${kind}-account:${account.toLowerCase()}`, max: config.SIGN_IN_FAILURES_PER_ACCOUNT },
    ].filter((budget) => budget.max > 0);

  return {
    countFailedAuthentication: async (request) =>
      config.AUTH_FAILURES_PER_MINUTE > 0 ? verdict(await failedAuthentications(request)) : NOT_EXCEEDED,
    countCallerRequest: async (request) => (callerRequests ? verdict(await callerRequests(request)) : NOT_EXCEEDED),
    countsCallerRequests: callerRequests !== null,
    countSignInAttempt: async (request, account) => {
      const counted = await countAttempt(attempts, budgets('sign-in', request, account));
      let kept = counted.keys;
      return {
        ...counted.verdict,
        giveBack: async () => {
          const keys = kept;
          kept = [];
          await attempts.decrement(keys);
        },
      };
    },
    countPasswordResetRequest: async (request, account) =>
      (await countAttempt(attempts, budgets('password-reset', request, account))).verdict,
    attempts,
  };
}

/** One attempt counted against the budgets over the sign-in window (see `countAgainstBudgets`); `keys` keep it. */
async function countAttempt(
  attempts: AttemptCounter,
  budgets: { key: string; max: number }[],
): Promise<{ verdict: LimitVerdict; keys: string[] }> {
  const counted = await countAgainstBudgets(attempts, budgets, SIGN_IN_WINDOW_MS);
  return { verdict: { exceeded: counted.exceeded, retryAfterSeconds: counted.retryAfterSeconds }, keys: counted.keptKeys };
}

/** ioredis, loaded only when Redis is configured. */
async function connectRedis(url: string, app: FastifyInstance) {
  const { Redis } = await import('ioredis');
  // Commands fail fast while Redis is away instead of queueing (the limiter then counts nothing);
  // ioredis keeps reconnecting in the background.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, lazyConnect: true });
  redis.on('error', () => undefined);
  await redis.connect().catch((error: unknown) => {
    app.log.warn({ err: error }, 'Redis is not reachable; rate limits are not counted until it is');
  });
  return redis;
}
