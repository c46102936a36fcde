import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { DB } from './database.js';
import type { Dialect } from './dialect.js';
import { GroupCommitSqliteDialect } from './group-commit.js';
import { type QueryCallback, queryWithShapes, type RowShapes, rowShapesSupported } from './postgres-row-shapes.js';
import { onlyReads, registerReadAtOnce } from './read-at-once.js';
import { ticketSearchQueueOf } from './ticket-search-queue.js';

export interface DatabaseHandle {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Human-readable target for logs: the SQLite file or the PostgreSQL host/database. */
  target: string;
  close(): Promise<void>;
}

export function createDb(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_MAX'>): DatabaseHandle {
  if (config.DATABASE_URL) {
    return connectPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  }
  return connectSqlite(join(resolve(config.DATA_DIR), 'switchboard.db'));
}

export function connectPostgres(url: string, poolMax = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, types: postgresTypes });
  // An idle connection the server drops (restart, failover, admin termination) is discarded by
  // the pool and reopened on demand; left unhandled, the pool's error event would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => prepareStatementsOf(client));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  sessionSettings.set(db, { connectionString: url, types: postgresTypes });
  pools.set(db, pool);
  // A read outside a transaction takes a pooled client for its one statement, as Kysely would, but
  // through pg's own callbacks instead of Kysely's chain of promises (named as every statement is).
  registerReadAtOnce(db, (query) =>
    onlyReads(query) ? pool.query(query.sql, query.parameters as unknown[]).then((result) => ({ rows: result.rows })) : undefined,
  );
  const parsed = new URL(url);
  return {
    db,
    dialect: 'postgres',
    target: `postgres://${parsed.host}${parsed.pathname}`,
    close: () => db.destroy(),
  };
}

export function connectSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Statement and savepoint journals in memory. A write in a transaction journals every page it
  // changes for its own rollback (the comment insert, with its full-text triggers, about a dozen;
  // each group-commit member again, under its savepoint). In temporary files that was some fifty
  // pwrite calls a comment, a third of the comment path's SQLite time. The journals last one
  // transaction. The cost: a query's temporary B-trees (a sort or DISTINCT no index serves) are held
  // in memory too, so queries keep their sorts on indexes (ARCHITECTURE.md, on group commit).
  sqlite.pragma('temp_store = MEMORY');
  const searchQueue = ticketSearchQueueOf(sqlite);
  const dialect = new GroupCommitSqliteDialect({
    database: withStatementCache(sqlite),
    beforeCommit: () => searchQueue.index(),
  });
  const db = new Kysely<DB>({ dialect });
  registerReadAtOnce(db, (query) => dialect.readAtOnce(query));
  return { db, dialect: 'sqlite', target: file, close: () => db.destroy() };
}

/**
 * How to open a PostgreSQL session of its own beside a database's pool, for what must keep one
 * connection for hours (LISTEN, see `notifications.ts`) without taking a pooled one away from
 * requests. Kept here because Kysely does not hand its pool's settings back, and every feature
 * is given the Kysely instance only.
 */
const sessionSettings = new WeakMap<Kysely<DB>, pg.ClientConfig>();

export function postgresSessionSettings(db: Kysely<DB>): pg.ClientConfig | undefined {
  return sessionSettings.get(db);
}

/** A PostgreSQL database's pool, for its metrics (kept here for the same reason as the settings above). */
const pools = new WeakMap<Kysely<DB>, pg.Pool>();

/** How a PostgreSQL database's pool is used now: connections open, idle, and requests waiting for one; null on SQLite. */
export function poolUseOf(db: Kysely<DB>): { total: number; idle: number; waiting: number } | null {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

const MAX_PREPARED_PER_CONNECTION = 1_000;

/**
 * Every parameterised query of a connection runs as a named prepared statement, so PostgreSQL
 * parses and plans each distinct statement once per connection instead of on every request (the
 * ticket read model's joins cost far more to plan than to run). Kysely hands the driver
 * `(text, values)`; this names the text. Statements without parameters (BEGIN, DDL, migrations)
 * stay unnamed, and past the cap new texts do too, so a connection's statements stay bounded. A
 * named statement's rows are read with the parsers found at its first run (`postgres-row-shapes.ts`).
 */
function prepareStatementsOf(client: pg.PoolClient): void {
  const names = new Map<string, string>();
  const shapes: RowShapes = new Map();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = (text: unknown, values: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query(text, values, ...rest);
    }
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_PER_CONNECTION) {
      name = `sb${names.size}`;
      names.set(text, name);
    }
    if (name === undefined) {
      return query({ text, values }, ...rest);
    }
    if (!rowShapesSupported) {
      return query({ name, text, values }, ...rest);
    }
    const callback = rest.find((argument) => typeof argument === 'function') as QueryCallback | undefined;
    return queryWithShapes(query, { name, text, values }, shapes, callback);
  };
  client.query = prepared as typeof client.query;
}

// PostgreSQL answers in the same JavaScript shapes as SQLite: ISO strings for instants, JSON as
// text (parsed once by `readJson`), counts as numbers, calendar dates as 'YYYY-MM-DD'.
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const DATE = 1082;
const INT8 = 20;
const JSON_OID = 114;
const JSONB = 3802;
/**
 * A timestamptz as PostgreSQL prints it (DateStyle ISO) to the ISO instant SQLite stores:
 * `2026-11-16 22:04:00.039+00` → `2026-11-16T22:04:00.039Z`. A UTC session's text (every row of a
 * list holds several) is rearranged as a string: 82 ns a value, where parsing it into a Date and
 * printing it again took 2 µs. Any other form (an offset, a year past 9999, BC) goes through Date. Either way
 * a fraction finer than milliseconds is cut, not rounded, as Date does.
 */
function parseInstant(text: string): string {
  const length = text.length;
  // `YYYY-MM-DD HH:MM:SS`, an optional `.` and 1 to 6 digits, `+00`.
  const isUtc =
    text.endsWith('+00') &&
    text.charCodeAt(10) === 32 &&
    (length === 22 || (length >= 24 && length <= 29 && text.charCodeAt(19) === 46));
  if (isUtc) {
    const milliseconds = length === 22 ? '000' : `${text.slice(20, length - 3)}00`.slice(0, 3);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
  }
  return new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}
const postgresTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TIMESTAMPTZ:
        return parseInstant;
      case TIMESTAMP:
        return (text: string) => parseInstant(`${text}Z`);
      case DATE:
      case JSON_OID:
      case JSONB:
        return (text: string) => text;
      case INT8:
        return (text: string) => Number(text);
      default:
        // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
        return pg.types.getTypeParser(oid, format as any);
    }
  },
} as pg.CustomTypesConfig;

interface SqliteStatement {
  readonly reader: boolean;
  all(parameters: ReadonlyArray<unknown>): unknown[];
  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown>;
}

/**
 * Kysely prepares every statement afresh (~30 µs each); reusing prepared statements recovers most
 * of that. Booleans are bound as 0/1 here, since better-sqlite3 refuses JavaScript booleans.
 */
function withStatementCache(sqlite: Database.Database, size = 500) {
  // The wrapped statement is kept, not only better-sqlite3's: a read by key asks for it on every request.
  const cache = new Map<string, SqliteStatement>();
  const bind = (parameters: ReadonlyArray<unknown>) =>
    parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));
  const wrap = (prepared: Database.Statement): SqliteStatement => ({
    reader: prepared.reader,
    all: (parameters) => prepared.all(bind(parameters)),
    run: (parameters) => prepared.run(bind(parameters)),
    iterate: (parameters) => prepared.iterate(bind(parameters)),
  });
  return {
    /** Whether a transaction is open: group commit checks that SQLite has not rolled one back itself. */
    get inTransaction() {
      return sqlite.inTransaction;
    },
    name: sqlite.name,
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (!statement) {
        statement = wrap(sqlite.prepare(sql));
        if (cache.size >= size) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) {
            cache.delete(oldest);
          }
        }
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
