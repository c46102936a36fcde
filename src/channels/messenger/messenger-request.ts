import type { FastifyRequest } from 'fastify';

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
