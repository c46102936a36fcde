import { STATUS_CODES } from 'node:http';

/** The one error vocabulary of services; each API area renders it in its own shape. */
export type ErrorCode =
  | 'VALIDATION'
  | 'MALFORMED_BODY'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'BAD_GATEWAY'
  | 'UNAVAILABLE';

export function codeToStatus(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION':
    case 'MALFORMED_BODY':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'UNPROCESSABLE':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'BAD_GATEWAY':
      return 502;
    case 'UNAVAILABLE':
      return 503;
  }
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** Where a bad value was found: the agent studio reports it as `loc[0]`. */
export type IssueLocation = 'body' | 'query' | 'path' | 'header';

/** One problem with the request's input, independent of how an area words it. */
export interface ValidationIssue {
  location: IssueLocation;
  /** Property path inside the location, e.g. `['fields', 0, 'version']`; empty for the whole part. */
  path: (string | number)[];
  /** What rule failed: `required`, `type`, `format`, `enum`, `minLength`, … or a service's own. */
  rule: string;
  /** Human text without the field name: `must be a string`, `is required`. */
  message: string;
  /** Rule details (`limit`, `type`, `allowedValues`, `format`). */
  params?: Record<string, unknown>;
}

export interface AppErrorOptions {
  code: ErrorCode;
  message: string;
  issues?: ValidationIssue[];
  cause?: unknown;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly issues: ValidationIssue[] | undefined;

  constructor({ code, message, issues, cause }: AppErrorOptions) {
    super(message, { cause });
    this.code = code;
    this.issues = issues;
  }

  get status(): number {
    return codeToStatus(this.code);
  }

  static notFound(message: string): AppError {
    return new AppError({ code: 'NOT_FOUND', message });
  }

  static conflict(message: string): AppError {
    return new AppError({ code: 'CONFLICT', message });
  }

  static forbidden(message: string): AppError {
    return new AppError({ code: 'FORBIDDEN', message });
  }

  /** A rule a schema cannot express, reported like a schema failure at `location`/`path`. */
  static invalid(message: string, issue?: Omit<ValidationIssue, 'message'> & { message?: string }): AppError {
    return new AppError({
      code: 'VALIDATION',
      message,
      issues: issue ? [{ ...issue, message: issue.message ?? message }] : undefined,
    });
  }
}
