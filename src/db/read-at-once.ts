import type { CompiledQuery, QueryResult } from 'kysely';

/**
 * Compiled reads run around Kysely's connection handling, where the database allows it: Kysely
 * acquires a connection, takes its mutex (SQLite) or pool client (PostgreSQL), runs the statement and
 * releases, a chain of promises that costs more than a read by key does in the database. `connect.ts`
 * registers each database's reader; a transaction is never registered, so its reads go through it.
 */
export type ReadAtOnce = (query: CompiledQuery) => Promise<QueryResult<unknown>> | undefined;

const readers = new WeakMap<object, ReadAtOnce>();

export function registerReadAtOnce(db: object, reader: ReadAtOnce): void {
  readers.set(db, reader);
}

/** Whether a compiled statement only reads: an INSERT … RETURNING answers rows too, and a write goes through Kysely. */
export function onlyReads(query: CompiledQuery): boolean {
  return query.query.kind === 'SelectQueryNode';
}

/**
 * The compiled read run now on the database's own reader, or undefined when it must go through
 * Kysely (a transaction, a write, a SQLite file with a transaction open). A failure is a rejected
 * promise, as through Kysely.
 */
export function readAtOnce<Row>(db: object, query: CompiledQuery<Row>): Promise<QueryResult<Row>> | undefined {
  return readers.get(db)?.(query) as Promise<QueryResult<Row>> | undefined;
}
