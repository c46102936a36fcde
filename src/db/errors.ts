import { AppError } from '../lib/errors.js';

interface DriverError {
  code?: string;
  constraint?: string;
}

/**
 * PostgreSQL SQLSTATE classes and codes that only bad input reaches: class 22 (data exceptions:
 * out-of-range numbers, invalid text representations, bad encodings, values too long, invalid
 * LIMIT/OFFSET), check violations, and program limits such as an index row or a tsvector too
 * large for a value. Anything else the database says is a fault.
 */
const POSTGRES_INPUT_CODES = new Set(['23514', '54000', '54001']);
const POSTGRES_INPUT_CLASS = '22';

/** SQLite's counterparts: a value too big, a type mismatch, a failed CHECK, a bad FTS query term. */
const SQLITE_INPUT_CODES = new Set(['SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_CONSTRAINT_CHECK', 'SQLITE_RANGE']);

/**
 * Turns driver errors that a request can cause into the shared vocabulary, once: a race a service
 * could not see coming (two inserts of one unique name) answers 409, and a value the database
 * refuses answers 400, not 500. Faults (lost connections, bugs) stay untranslated.
 */
export function translateDbError(error: unknown): AppError | null {
  const driverError = (error ?? {}) as DriverError;
  const code = typeof driverError.code === 'string' ? driverError.code : '';
  switch (code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case '23505':
      return new AppError({ code: 'CONFLICT', message: 'A record with the same unique value already exists', cause: error });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case '23503':
      return new AppError({ code: 'CONFLICT', message: 'A referenced record is missing or still in use', cause: error });
  }
  if (
    SQLITE_INPUT_CODES.has(code) ||
    POSTGRES_INPUT_CODES.has(code) ||
    (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(POSTGRES_INPUT_CLASS))
  ) {
    return new AppError({
      code: 'VALIDATION',
      message: 'A value is out of range, malformed or too long to be stored',
      cause: error,
    });
  }
  return null;
}

/**
 * For `.catch()` on a write whose unique constraint the service checked just before: a concurrent
 * writer that got there first still gets the service's own 409 message, not the generic one.
 */
export function conflictAs(message: string) {
  return (error: unknown): never => {
    if (translateDbError(error)?.code === 'CONFLICT') {
      throw AppError.conflict(message);
    }
    throw error;
  };
}
