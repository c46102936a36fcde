import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

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
  /**
   * Whether the request's address or the account (an email) has used up its failed sign-ins of the
   * window; counts nothing, so people who sign in successfully never use up the budget of a shared
   * address (an office behind one NAT).
   */
  checkSignIn(request: FastifyRequest, account: string): Promise<LimitVerdict>;
  /** Counts one failed sign-in against the request's address and the account. */
  countSignInFailure(request: FastifyRequest, account: string): Promise<void>;
  /** Counts one password-reset request against the address and the account (each request, so mail cannot be sent at will). */
  countPasswordResetRequest(request: FastifyRequest, account: string): Promise<LimitVerdict>;
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
 * (`RATE_LIMIT_PER_MINUTE`, off by default); failed sign-ins and password-reset requests per
 * address and per email over 15 minutes (`SIGN_IN_FAILURES_PER_ADDRESS`, `…_PER_ACCOUNT`).
 * Counters live in Redis when `REDIS_URL` is set, so every process shares them; otherwise in this
 * process's memory, a window per listener.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<RequestLimits> {
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

  // The account a sign-in limiter counts for this request; the limiters' key generators only get the request.
  const accounts = new WeakMap<FastifyRequest, string>();
  const accountOf = (request: FastifyRequest) => (accounts.get(request) ?? '').toLowerCase();
  const perWindow = (max: number, keyGenerator: (request: FastifyRequest) => string) =>
    max > 0 ? app.createRateLimit({ max, timeWindow: SIGN_IN_WINDOW_MS, keyGenerator }) : null;
  const signInLimiters = [
    perWindow(config.SIGN_IN_FAILURES_PER_ADDRESS, (request) => `sign-in-address:${request.ip}`),
    perWindow(config.SIGN_IN_FAILURES_PER_ACCOUNT, (request) => `sign-in-account:${accountOf(request)}`),
  ].filter((limiter) => limiter !== null);
  const resetLimiters = [
    perWindow(config.SIGN_IN_FAILURES_PER_ADDRESS, (request) => `password-reset-address:${request.ip}`),
    perWindow(config.SIGN_IN_FAILURES_PER_ACCOUNT, (request) => `password-reset-account:${accountOf(request)}`),
  ].filter((limiter) => limiter !== null);

  type Limiter = ReturnType<typeof app.createRateLimit>;
  type LimiterResult = Awaited<ReturnType<Limiter>>;
  const verdict = (result: LimiterResult): LimitVerdict =>
    result.isAllowed ? NOT_EXCEEDED : { exceeded: result.isExceeded, retryAfterSeconds: Math.max(1, result.ttlInSeconds) };
  /** The first exceeded verdict of the limiters, each asked in turn (`mark` counts, a read does not). */
  const first = async (
    limiters: Limiter[],
    request: FastifyRequest,
    account: string,
    judge: (result: LimiterResult) => LimitVerdict,
    increment: boolean,
  ) => {
    accounts.set(request, account);
    let answer = NOT_EXCEEDED;
    for (const limiter of limiters) {
      const result = judge(await limiter(request, { increment }));
      if (result.exceeded && !answer.exceeded) {
        answer = result;
      }
    }
    return answer;
  };
  // A read reports the failures so far: the budget is used up when they reach the limit.
  const used = (result: LimiterResult): LimitVerdict =>
    result.isAllowed || result.remaining > 0
      ? NOT_EXCEEDED
      : { exceeded: true, retryAfterSeconds: Math.max(1, result.ttlInSeconds) };

  return {
    countFailedAuthentication: async (request) =>
      config.AUTH_FAILURES_PER_MINUTE > 0 ? verdict(await failedAuthentications(request)) : NOT_EXCEEDED,
    countCallerRequest: async (request) => (callerRequests ? verdict(await callerRequests(request)) : NOT_EXCEEDED),
    checkSignIn: (request, account) => first(signInLimiters, request, account, used, false),
    countSignInFailure: async (request, account) => {
      await first(signInLimiters, request, account, verdict, true);
    },
    countPasswordResetRequest: (request, account) => first(resetLimiters, request, account, verdict, true),
  };
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
