import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../lib/metrics.js';
import type { FinishedRequestObserver } from './logging.js';

/**
 * `GET /metrics` (Prometheus text format) and what counts every request into it. The route
 * is registered only where it is exposed (see `planListeners`: with `METRICS_TOKEN` on every
 * listener, with `METRICS_PORT` on that port's only); elsewhere `/metrics` is not found like any
 * unknown path. It is not an API area's route: no OpenAPI document lists it.
 */

/** What a request's `area` label is, from the start of its route pattern (or of its path, when no route matched). */
const AREA_PREFIXES: readonly [string, string][] = [
  ['/api/v1/', 'agentStudio'],
  ['/v1/', 'platform'],
  ['/widget/', 'messenger'],
  ['/app/', 'console'],
  ['/app', 'console'],
  ['/docs', 'docs'],
  ['/healthz', 'operations'],
  ['/readyz', 'operations'],
  ['/metrics', 'operations'],
];

function areaOf(path: string): string {
  for (const [prefix, area] of AREA_PREFIXES) {
    if (path.startsWith(prefix)) {
      return area;
    }
  }
  // The help center is mounted at the root: its API, its public site (/hc) and its own domains.
  return 'helpCenter';
}

/** The label of requests no route matched: the path is the caller's, never a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every answered request by its route pattern (`routeOptions.url`, never the URL:
 * `/v1/tickets/:id`, not a ticket's id): an observer of the request log's onResponse hook
 * (`registerRequestLog`), a map lookup, a count and a histogram observation per request.
 */
export function requestMetricsObserver(metrics: Metrics): FinishedRequestObserver {
  const areaByRoute = new Map<string, string>();
  return (request, reply) => {
    const route = request.routeOptions.url;
    let area = route === undefined ? areaOf(request.url) : areaByRoute.get(route);
    if (area === undefined && route !== undefined) {
      area = areaOf(route);
      areaByRoute.set(route, area);
    }
    metrics.observeRequest(
      area ?? UNMATCHED_ROUTE,
      request.method,
      route ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * `GET /metrics`: with a token, only for `Authorization: Bearer <token>` (compared in constant
 * time, as digests, so neither its bytes nor its length leak); a missing or wrong one is a 401 in
 * Fastify's plain shape, naming the scheme.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? null : digest(`Bearer ${token}`);
  app.get('/metrics', ROUTE_OPTIONS, async (request: FastifyRequest, reply: FastifyReply) => {
    if (expected) {
      const given = request.headers.authorization;
      if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ statusCode: 401, error: 'Unauthorized', message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>' });
      }
    }
    const text = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

/**
 * `GET /metrics` where it is not exposed: not found in the plain shape, whoever asks (otherwise
 * the help center's not-found handler would ask for an API key first, and a 401 would suggest
 * there is something to unlock).
 */
export function registerMetricsNotExposed(app: FastifyInstance): void {
  app.get('/metrics', ROUTE_OPTIONS, async (_request, reply) =>
    reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /metrics' }),
  );
}

/** Outside the API areas: no key asked (the token is the route's own check), in no OpenAPI document. */
const ROUTE_OPTIONS = { config: { public: true }, schema: { hide: true } };
