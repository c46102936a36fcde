import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from '../config.js';

/** Secrets that must never reach a log line, wherever a serializer puts the headers. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
];

/** Query parameters that carry one-time secrets (the MCP OAuth callback's `code` and `state`). */
const SECRET_QUERY = /([?&](?:code|state|code_verifier|access_token|refresh_token|token|client_secret)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/** `destination` defaults to standard output; tests pass a stream that captures the lines. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          headers: request.headers,
          remoteAddress: request.ip,
        }),
      },
    },
    destination,
  );
}
