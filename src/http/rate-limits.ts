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
  /** Counts one request of an authenticated API key; never exceeded when per-key limits are off. */
  countKeyRequest(request: FastifyRequest, apiKeyId: string): Promise<LimitVerdict>;
}

const WINDOW_MS = 60_000;
const NOT_EXCEEDED: LimitVerdict = { exceeded: false, retryAfterSeconds: 0 };

/**
 * Rate limits with `@fastify/rate-limit`, used as limiter functions called by the authentication
 * hook rather than as a hook of every route: failed authentications are counted per client
 * address (`AUTH_FAILURES_PER_MINUTE`), so guessing keys is slowed while valid keys from the same
 * address keep working; requests of a key are counted per key (`RATE_LIMIT_PER_MINUTE`, off by
 * default). Counters live in Redis when `REDIS_URL` is set, so every process shares them;
 * otherwise in this process's memory, a window per listener.
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
  const keyRequests = config.RATE_LIMIT_PER_MINUTE
    ? app.createRateLimit({
        max: config.RATE_LIMIT_PER_MINUTE,
        keyGenerator: (request) => `api-key:${request.principal.apiKeyId}`,
      })
    : null;

  const verdict = (result: Awaited<ReturnType<typeof failedAuthentications>>): LimitVerdict =>
    result.isAllowed ? NOT_EXCEEDED : { exceeded: result.isExceeded, retryAfterSeconds: Math.max(1, result.ttlInSeconds) };

  return {
    countFailedAuthentication: async (request) =>
      config.AUTH_FAILURES_PER_MINUTE > 0 ? verdict(await failedAuthentications(request)) : NOT_EXCEEDED,
    countKeyRequest: async (request) => (keyRequests ? verdict(await keyRequests(request)) : NOT_EXCEEDED),
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
