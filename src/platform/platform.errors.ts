import type { FastifyRequest } from 'fastify';
import type { NormalizedError } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { reasonPhrase } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Custom-field routes answer errors as `{message, statusCode, timestamp}`. */
    errorShape?: 'customField';
    /** The message of a 500 on this route, where the contract names one (default `Something went wrong!`). */
    faultMessage?: string;
  }
}

const FIXED_MESSAGES: Partial<Record<number, string>> = {
  401: 'User is not authenticated!',
  429: 'Too many requests!',
  500: 'Something went wrong!',
  503: 'This service/resource is currently unavailable.',
};

/**
 * Custom-field paths, for requests that reached no route (a URL the router refused, such as a
 * malformed percent-escape, or an unknown path below them): they answer as the routes do.
 */
const CUSTOM_FIELD_PATH = /^\/v1\/custom-field(?=[/?#]|$)/;

function errorShapeOf(request: FastifyRequest): 'customField' | undefined {
  const { config, url } = request.routeOptions;
  if (config?.errorShape || url !== undefined) {
    return config?.errorShape;
  }
  return CUSTOM_FIELD_PATH.test(request.url ?? '') ? 'customField' : undefined;
}

/** Renders any failure of a `/v1` route in the platform's shape. */
export function renderPlatformError(clock: Clock) {
  return (error: NormalizedError, request: FastifyRequest) => {
    const status = error.status;
    const faultMessage = status === 500 ? request.routeOptions.config?.faultMessage : undefined;
    const message = faultMessage ?? FIXED_MESSAGES[status] ?? error.message;
    if (errorShapeOf(request) === 'customField') {
      return { status, body: { message, statusCode: status, timestamp: clock.now().toISOString() } };
    }
    return { status, body: { statusCode: status, message, error: reasonPhrase(status) } };
  };
}
