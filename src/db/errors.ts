import { AppError } from '../http/errors.js';

interface DriverError {
  code?: string;
  constraint?: string;
}

/**
 * Turns constraint violations of either driver into the shared vocabulary, once, so that a race
 * a service could not see coming (two inserts of one unique name) still answers 409, not 500.
 */
export function translateDbError(error: unknown): AppError | null {
  const driverError = (error ?? {}) as DriverError;
  switch (driverError.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case '23505':
      return new AppError({ code: 'CONFLICT', message: 'A record with the same unique value already exists', cause: error });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case '23503':
      return new AppError({ code: 'CONFLICT', message: 'A referenced record is missing or still in use', cause: error });
    default:
      return null;
  }
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
