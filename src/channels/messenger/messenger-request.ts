import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { requireVisitor } from './messenger-visitor.service.js';
import { requireEnabledWidget } from './messenger-widget.js';

/** The token of `Authorization: Bearer <token>`, or undefined without one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) {
    return undefined;
  }
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  // A header that is not a bearer token is a bad token, not a missing one.
  return match?.[1] ?? '';
}

/** The help center of the path and the visitor holding the request's token (401 without a valid one). */
export async function visitorOf(deps: AppDeps, request: FastifyRequest<{ Params: { slug: string } }>) {
  const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
  const visitor = await requireVisitor(deps, helpCenter, bearerToken(request));
  return { helpCenter, visitor };
}
