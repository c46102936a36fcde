import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { verifySlackSignature } from './slack-signature.js';

/**
 * Holds a request to Slack's signature over its raw body (the events URL's JSON, the interactivity
 * URL's form): 409 when the server has no Slack app, 401 when the signature is missing, stale or
 * wrong, the reason logged. Nothing is read of the body before it passes.
 */
export function requireSlackSignature(
  deps: { config: Config; clock: Clock },
  request: FastifyRequest,
  rawBody: string,
  what: 'request' | 'interaction',
): void {
  const signingSecret = deps.config.SLACK_SIGNING_SECRET;
  if (!signingSecret) {
    throw AppError.conflict('Slack is not set up on this server');
  }
  const check = verifySlackSignature({
    signingSecret,
    timestamp: request.headers['x-slack-request-timestamp'] as string | undefined,
    signature: request.headers['x-slack-signature'] as string | undefined,
    rawBody,
    nowSeconds: Math.floor(deps.clock.now().getTime() / 1000),
  });
  if (!check.ok) {
    request.log.warn({ reason: check.reason }, `Slack ${what} refused: its signature does not hold`);
    throw new AppError({ code: 'UNAUTHENTICATED', message: `Slack signature refused: ${check.reason}` });
  }
}
