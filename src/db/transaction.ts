import type { Kysely, Transaction } from 'kysely';
import type { DB } from './database.js';

/**
 * Runs `work` in a transaction: the caller's, when `db` is one already (its changes then commit or
 * roll back with everything else the caller does, as one import of a configuration document
 * needs), else a new one. Kysely cannot open a transaction inside a transaction, so a service
 * that may be called either way opens its own through this.
 */
export async function inTransaction<T>(db: Kysely<DB> | Transaction<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    return work(db as Transaction<DB>);
  }
  return db.transaction().execute(work);
}
