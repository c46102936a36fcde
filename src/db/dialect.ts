import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { storableJson } from '../lib/storable-text.js';

/**
 * The only place that knows SQLite and PostgreSQL apart. Features call these helpers and stay
 * dialect-agnostic; the connection layer (`connect.ts`) makes both drivers hand back the same
 * JavaScript shapes: timestamps as ISO 8601 strings, JSON as text, 64-bit counts as numbers.
 */
export type Dialect = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: any database, including migrations' untyped one
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column types for migrations, chosen per dialect. */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export function columnTypes(db: Kysely<any>) {
  const postgres = dialectOf(db) === 'postgres';
  return {
    /** UTC instant; SQLite keeps the ISO 8601 text, which sorts chronologically. */
    timestamp: postgres ? ('timestamptz' as const) : ('text' as const),
    json: postgres ? ('jsonb' as const) : ('text' as const),
    boolean: postgres ? ('boolean' as const) : ('integer' as const),
    /** Raw bytes, read back as a Buffer by both drivers. */
    binary: postgres ? ('bytea' as const) : ('blob' as const),
  };
}

/** Booleans come back as 0/1 from SQLite and as true/false from PostgreSQL. */
export function readBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

/** Both drivers return JSON columns as text (see `connect.ts`); a null column stays null. */
export function readJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) {
    return null;
  }
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * A value as JSON text for a JSON column; null and undefined as SQL null. Strings are made storable
 * (`lib/storable-text.ts`): `jsonb` refuses `\u0000` and lone surrogates, and much of what is
 * written here came from outside (tool output, model text, MCP results, event data). Both
 * databases get the same text, so they read back the same value.
 */
export function writeJson(value: unknown): string | null {
  return value === undefined || value === null ? null : storableJson(value);
}

/** Row lock for read-then-write in a transaction; SQLite's write transaction already serialises. */
// biome-ignore lint/suspicious/noExplicitAny: generic over every select
export function forUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return dialectOf(db) === 'postgres' ? (query.forUpdate() as QB) : query;
}

/**
 * Runs `run` while holding the lock named `key` across processes: a session advisory lock on
 * PostgreSQL, taken on a connection reserved for the duration and handed to `run`, so the holder
 * never waits for a second pool connection. SQLite is one embedded process's file: `run` gets the
 * database as it is, and callers serialise inside the process themselves.
 */
export async function withAdvisoryLock<DB, T>(db: Kysely<DB>, key: string, run: (locked: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') {
    return run(db);
  }
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(connection);
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(connection);
    }
  });
}

/**
 * Shared row lock: the row cannot change until the transaction ends, while other transactions may
 * hold the same lock (a vote checks that its article stays published without making votes queue
 * on each other). SQLite's write transaction already serialises.
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over every select
export function forShare<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return dialectOf(db) === 'postgres' ? (query.forShare() as QB) : query;
}

/**
 * Row lock for a read-then-write that changes no key: PostgreSQL's `for no key update`, which, unlike
 * `for update`, lets other transactions keep inserting rows whose foreign keys point at the locked
 * rows. SQLite's write transaction already serialises.
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over every select
export function forNoKeyUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return dialectOf(db) === 'postgres' ? (query.forNoKeyUpdate() as QB) : query;
}

/**
 * Claims rows for a queue: `for update skip locked` on PostgreSQL, so concurrent claimers pass over
 * rows another transaction holds; SQLite runs one writer at a time, so the query stays as it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over every select
export function forUpdateSkipLocked<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return dialectOf(db) === 'postgres' ? (query.forUpdate().skipLocked() as QB) : query;
}

/**
 * Whether dependent writes can go to the database as one statement: PostgreSQL runs
 * data-modifying `WITH` clauses (one round trip, atomic without a transaction); SQLite cannot, and
 * runs them as statements of a transaction, which in-process costs no round trips.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database or transaction
export function writesInOneStatement(db: Kysely<any>): boolean {
  return dialectOf(db) === 'postgres';
}

/**
 * An instant read from inside a JSON value (`jsonArrayOf`) in the ISO form a column's instant has:
 * PostgreSQL writes a timestamptz in JSON with its offset (`…+00:00`), SQLite as it was stored.
 */
export function instantOfJson(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * The rows of `subquery` as a JSON array (text; `readJson` parses it), selected as one column of the
 * outer query: what a one-to-many read needs without a second statement. Both helpers keep the
 * subquery's row order in practice; readers that need an order guaranteed sort after parsing.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database, any subquery
export function jsonArrayOf<Row>(db: Kysely<any>, subquery: SelectQueryBuilder<any, any, Row>): RawBuilder<string> {
  const array = dialectOf(db) === 'postgres' ? postgresJsonArrayFrom(subquery) : sqliteJsonArrayFrom(subquery);
  return array as unknown as RawBuilder<string>;
}

/**
 * `query` joined to the rows of `table`, named `alias`, that `matches` picks for each of its rows,
 * found by an index lookup per row. Given an ordinary join, the planners guess the size of a CTE
 * or of a recursive step, and may scan and hash the whole table instead. SQLite keeps the left side
 * of a CROSS JOIN as the outer loop; PostgreSQL gets a LATERAL subquery, which `OFFSET 0` keeps from
 * being turned back into an ordinary join.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database, any select query
export function joinRowByRow<Query extends SelectQueryBuilder<any, any, any>>(
  // biome-ignore lint/suspicious/noExplicitAny: any database
  db: Kysely<any>,
  query: Query,
  table: string,
  alias: string,
  // biome-ignore lint/suspicious/noExplicitAny: conditions on any tables
  matches: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
): Query {
  if (dialectOf(db) === 'postgres') {
    return query.crossJoinLateral((eb) =>
      eb.selectFrom(`${table} as ${alias}`).selectAll().where(matches).offset(sql.lit(0)).as(alias),
    ) as unknown as Query;
  }
  return query.crossJoin(`${table} as ${alias}`).where(matches) as unknown as Query;
}

/**
 * `column` is one of the values of `array`, a JSON array of strings bound as one parameter: one
 * statement, compiled and prepared once, for any number of values, where `IN (?, ?, …)` is a
 * statement for each count.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database or transaction
export function inJsonArray(db: Kysely<any>, column: string, array: string): RawBuilder<SqlBool> {
  return dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} in (select json_array_elements_text(cast(${array} as json)))`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${array}))`;
}

/**
 * Case-insensitive LIKE: `ilike` on PostgreSQL, `like` on SQLite. SQLite folds ASCII letters only,
 * so non-ASCII letters match case-sensitively there.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database or transaction
export function likeOperator(db: Kysely<any>): 'ilike' | 'like' {
  return dialectOf(db) === 'postgres' ? 'ilike' : 'like';
}

/** Escapes LIKE wildcards in user input; pair with `escape '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}
