import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from '../config.js';

/** Secrets that must never reach a log line, wherever a serializer puts the headers. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-csrf-token"]',
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

declare module 'fastify' {
  interface FastifyRequest {
    /** Why a request failed with a 4xx, for its log line. */
    failureReason: string | undefined;
  }
}

/**
 * The request id as the `x-request-id` header of the answer, and one line per finished request, in place of Fastify's two (a `request received` line is added at
 * debug level): method, route pattern, status,
 * latency, who called (organization and user) and the request id. A 4xx carries its reason at
 * info level; a 5xx is logged at error level (its fault was logged with the stack before).
 */
const WRITES_INFO = new Set(['trace', 'debug', 'info']);

/** What else a finished request is handed to (its metrics), on the request log's hook. */
export type FinishedRequestObserver = (request: FastifyRequest, reply: FastifyReply) => void;

export function registerRequestLog(app: FastifyInstance, observers: readonly FinishedRequestObserver[] = []): void {
  app.decorateRequest('failureReason', undefined);
  // One hook for what every request starts with: the request id echoed, and at debug level only,
  // a line showing the request arrived (when a request hangs, its start is the line that shows it).
  // Both hooks are callbacks, not async functions: they run on every request, and an async hook
  // is a turn of the promise machinery more.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'request received');
    }
    done();
  });
  // The other observers of a finished request ride on this hook rather than adding their own:
  // Fastify runs every onResponse hook through its hook runner, which each request pays per hook.
  app.addHook('onResponse', (request, reply, done) => {
    logFinished(request, reply);
    for (const observe of observers) {
      observe(request, reply);
    }
    done();
  });
}

function logFinished(request: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  // Below info (LOG_LEVEL=warn) a finished request is written only when it failed: its line is
  // not even built, as the request log costs the hot paths more than their handlers do.
  if (status < 500 && !WRITES_INFO.has(request.log.level)) {
    return;
  }
  const principal = request.principal as Partial<FastifyRequest['principal']> | undefined;
  const line = {
    method: request.method,
    route: request.routeOptions.url ?? redactUrl(request.url.split('?')[0] ?? ''),
    url: redactUrl(request.url),
    status,
    latencyMs: Math.round(reply.elapsedTime * 100) / 100,
    organizationId: principal?.organizationId,
    userId: principal?.userId,
    ...(status >= 400 && request.failureReason ? { reason: request.failureReason } : {}),
  };
  if (status >= 500) {
    request.log.error(line, 'request finished');
  } else {
    request.log.info(line, 'request finished');
  }
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Each request's logger (`request.log`, Fastify's `childLoggerFactory`), made into pino's child only
 * when the request first writes a line at an enabled level. pino serializes a child's bindings (the
 * request id) as it makes it, on every request, where at the default levels most requests write
 * nothing. The child, once made, is the one Fastify's default would have made: same bindings, same
 * options, same lines.
 */
export function createRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route with a level of its own (Fastify's `logLevel`) writes other lines than its parent would: its child is made at once.
  if (options.level !== undefined) {
    return parent.child(bindings, options);
  }
  return new RequestLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

class RequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  fatal(...line: unknown[]): void {
    this.write('fatal', line);
  }
  error(...line: unknown[]): void {
    this.write('error', line);
  }
  warn(...line: unknown[]): void {
    this.write('warn', line);
  }
  info(...line: unknown[]): void {
    this.write('info', line);
  }
  debug(...line: unknown[]): void {
    this.write('debug', line);
  }
  trace(...line: unknown[]): void {
    this.write('trace', line);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.made().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  private made(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  private write(level: LevelName, line: unknown[]): void {
    if (this.isLevelEnabled(level)) {
      (this.made()[level] as (...args: unknown[]) => void)(...line);
    }
  }
}
