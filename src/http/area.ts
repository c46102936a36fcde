import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AreaName } from '../config.js';
import { publicBaseUrl } from '../config.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/errors.js';
import { type NormalizedError, normalizeError } from './errors.js';

/** Renders a failure as an area's status and body. */
export type ErrorRenderer = (error: NormalizedError, request: FastifyRequest) => { status: number; body: unknown };

/** How one API area speaks: its error body for every failure, and its OpenAPI identity. */
export interface AreaConventions {
  name: AreaName;
  title: string;
  description: string;
  /** Schemas of the error bodies, published as OpenAPI components. */
  errorSchemas: Record<string, unknown>;
  /** The operation tags of the area, each described for the API reference's sidebar. */
  tags: { name: string; description: string }[];
  renderError: ErrorRenderer;
  /** Whether a signed-in browser's session cookie authenticates as well as an API key. */
  acceptsSessions?: boolean;
}

/**
 * Registers the parts every area shares: its OpenAPI document, API-key (or session) auth on every
 * route (and on its unknown routes, so they do not reveal what exists), and one error mapper for AppErrors,
 * validation failures, malformed or oversize bodies and faults.
 */
export async function setUpArea(app: FastifyInstance, deps: AppDeps, conventions: AreaConventions): Promise<void> {
  // A public route (no API key) says so in the OpenAPI document too.
  app.addHook('onRoute', (route) => {
    if (route.config?.public) {
      route.schema = { ...route.schema, security: [] };
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: conventions.title, description: conventions.description, version: '1.0.0' },
      tags: conventions.tags,
      servers: [{ url: publicBaseUrl(deps.config, conventions.name) }],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
        // biome-ignore lint/suspicious/noExplicitAny: TypeBox schemas are plain JSON Schema objects
        schemas: conventions.errorSchemas as any,
      },
      security: [{ apiKey: [] }],
    },
  });
  deps.docs.set(conventions.name, () => app.swagger());
  deps.errorRenderers.set(conventions.name, conventions.renderError);

  // A callback hook: a remembered key is judged without a promise (`Authenticate`).
  const authenticate = conventions.acceptsSessions ? deps.authenticateWithSession : deps.authenticate;
  app.addHook('onRequest', (request, reply, done) => {
    const judging = authenticate(request, reply);
    if (judging) {
      judging.then(() => done(), done);
    } else {
      done();
    }
  });

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) =>
    replyWithError(conventions.renderError, error, request, reply),
  );

  app.setNotFoundHandler(async (request: FastifyRequest) => {
    throw AppError.notFound(`Cannot ${request.method} ${request.url.split('?')[0]}`);
  });
}

/**
 * Answers a failure in an area's shape: faults are logged with the request id and answered
 * without internals; a client error's reason is kept for the request's log line.
 */
export function replyWithError(render: ErrorRenderer, error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const normalized = normalizeError(error);
  if (normalized.fault) {
    request.log.error({ err: normalized.fault }, 'request failed');
  } else {
    request.failureReason = normalized.message;
  }
  const { status, body } = render(normalized, request);
  return reply.code(status).send(body);
}
