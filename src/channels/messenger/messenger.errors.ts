import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NormalizedError } from '../../http/errors.js';
import { AppError, type ErrorCode } from '../../lib/errors.js';

/** `{error: {code, message}}`: how the messenger's API answers every failure (the contract of issue 34). */
export const MessengerErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({
          description: 'snake_case: not_found, invalid_request, unauthorized, forbidden, rate_limited or verification_required',
        }),
        message: Type.String({ description: 'A human sentence' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'MessengerError' },
);

const CODES: Record<ErrorCode, string> = {
  VALIDATION: 'invalid_request',
  MALFORMED_BODY: 'invalid_request',
  UNPROCESSABLE: 'invalid_request',
  UNAUTHENTICATED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  RATE_LIMITED: 'rate_limited',
  INTERNAL: 'internal_error',
  BAD_GATEWAY: 'bad_gateway',
  UNAVAILABLE: 'unavailable',
};

export function renderMessengerError(error: NormalizedError, _request: FastifyRequest) {
  const message = error.status >= 500 ? 'Internal server error' : error.message;
  // A refusal for want of a verified identity names its own code, so the panel can ask the host to sign the visitor in.
  const code = error.issues?.[0]?.rule === 'verification_required' ? 'verification_required' : CODES[error.code];
  return { status: error.status, body: { error: { code, message } } };
}

/** The error responses of an operation, for its OpenAPI: always 401 (the contract test asks every operation for it) and 500. */
export function messengerErrorResponses(statuses: number[]) {
  const all = new Set([...statuses, 401, 500]);
  return Object.fromEntries([...all].sort().map((status) => [status, MessengerErrorSchema]));
}

/** A refusal of the messenger's limits, with the seconds to wait (the `retry-after` header). */
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ code: 'RATE_LIMITED', message });
  }
}

/** Runs a limit check; a `RateLimited` refusal leaves its `retry-after` on the reply before the error answer. */
export async function withRetryAfter(reply: FastifyReply, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof RateLimited) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    throw error;
  }
}
