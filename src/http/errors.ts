import { translateDbError } from '../db/errors.js';
import { AppError, type ErrorCode, type IssueLocation, reasonPhrase, type ValidationIssue } from '../lib/errors.js';
import { type AjvLikeError, describeIssue, issuesFromAjv } from '../lib/validation-issues.js';

/** Anything thrown while serving a request, reduced to what the area renderers need. */
export interface NormalizedError {
  status: number;
  code: ErrorCode;
  message: string;
  issues: ValidationIssue[] | undefined;
  /** Set for faults: the original error, to be logged, never shown. */
  fault: unknown;
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
  validation?: AjvLikeError[];
  validationContext?: string;
}

export function normalizeError(error: unknown): NormalizedError {
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, issues: error.issues, fault: undefined };
  }
  const translated = translateDbError(error);
  if (translated) {
    return normalizeError(translated);
  }
  const fastifyError = (error ?? {}) as FastifyLikeError;
  if (Array.isArray(fastifyError.validation)) {
    const issues = issuesFromAjv(fastifyError.validation, contextToLocation(fastifyError.validationContext));
    return {
      status: 400,
      code: 'VALIDATION',
      message: issues.map(describeIssue).join('; ') || 'Invalid request',
      issues,
      fault: undefined,
    };
  }
  const status = fastifyError.statusCode;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return clientError(413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than the allowed limit');
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return clientError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json');
  }
  if (
    status === 400 &&
    (error instanceof SyntaxError ||
      fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
  ) {
    return clientError(400, 'MALFORMED_BODY', 'Request body is not valid JSON');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return clientError(status, statusToCode(status), fastifyError.message ?? reasonPhrase(status));
  }
  return { status: 500, code: 'INTERNAL', message: 'Internal server error', issues: undefined, fault: error };
}

function clientError(status: number, code: ErrorCode, message: string): NormalizedError {
  return { status, code, message, issues: undefined, fault: undefined };
}

function statusToCode(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    401: 'UNAUTHENTICATED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    422: 'UNPROCESSABLE',
    429: 'RATE_LIMITED',
  };
  return byStatus[status] ?? 'VALIDATION';
}

function contextToLocation(context: string | undefined): IssueLocation {
  switch (context) {
    case 'querystring':
      return 'query';
    case 'params':
      return 'path';
    case 'headers':
      return 'header';
    default:
      return 'body';
  }
}
