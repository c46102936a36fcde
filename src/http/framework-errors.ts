import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AreaName } from '../config.js';
import { AppError } from '../lib/errors.js';
import type { Authenticate } from './api-key-auth.js';
import { type ErrorRenderer, replyWithError } from './area.js';

/** Longest path parameter the router accepts; longer ones are refused before any route runs. */
export const MAX_PARAM_LENGTH = 1_000;

/** The area a URL belongs to, by the same prefixes the areas are mounted at. */
export function areaOfUrl(url: string): AreaName {
  if (/^\/api\/v1(?=[/?#]|$)/.test(url)) {
    return 'agentStudio';
  }
  return /^\/v1(?=[/?#]|$)/.test(url) ? 'platform' : 'helpCenter';
}

/**
 * Fastify's `frameworkErrors`: requests the router refuses before any route or area sees them (a
 * malformed percent-encoding, an over-long path parameter). They are authenticated first, like
 * every request, then answered in the shape of the area their URL belongs to.
 */
export function createFrameworkErrorHandler(
  resolve: () => { authenticate: (area: AreaName) => Authenticate; renderers: Map<AreaName, ErrorRenderer> },
) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { authenticate, renderers } = resolve();
    // The router refused the request before the app's own hooks, which echo the request id, ran.
    reply.header('x-request-id', request.id);
    const area = areaOfUrl(request.url);
    const render = renderers.get(area) ?? renderers.get('platform') ?? [...renderers.values()][0];
    if (!render) {
      return reply.code(400).send({ statusCode: 400, message: error.message, error: 'Bad Request' });
    }
    try {
      await authenticate(area)(request, reply);
      throw AppError.invalid(describeFrameworkError(error), { location: 'path', path: [], rule: 'value_error' });
    } catch (failure) {
      return replyWithError(render, failure, request, reply);
    }
  };
}

function describeFrameworkError(error: FastifyError): string {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return 'The URL is malformed: a percent sign must start a valid %XX escape';
  }
  return 'The request could not be routed';
}
