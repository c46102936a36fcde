import type { FastifyRequest } from 'fastify';

/** Scheme and host the reader used (behind a proxy, as TRUST_PROXY lets the app read them). */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
