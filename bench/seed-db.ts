import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ticketSearchQueueOf } from '../src/db/ticket-search-queue.js';
import { type BenchDialect, type DatasetLocation, type DatasetMeta, sqliteFile } from './datasets.js';

/**
 * Direct access to a dataset's database for seeding: copies of a template row made by the API,
 * thousands per statement or transaction. Everything but the columns given is copied from the
 * template, so columns a later migration adds are filled as the application filled them.
 */
export type Value = string | number | null;

/** Column name → value of the i-th copy. */
export type Overrides = Record<string, (index: number) => Value>;

export interface SeedDb {
  dialect: BenchDialect;
  /** Inserts `count` copies of the row whose `keyColumn` is `templateId`, with `overrides` applied. */
  copyRow(table: string, keyColumn: string, templateId: string, count: number, overrides: Overrides): Promise<void>;
  /** SQL with `?` placeholders on both databases. */
  query<Row>(sql: string, params?: Value[]): Promise<Row[]>;
  exec(sql: string, params?: Value[]): Promise<void>;
  /** An instant column as ISO 8601 with milliseconds and Z (how both stores hand it to the app). */
  isoOf(column: string): string;
  /** After the bulk load: vacuum and statistics (PostgreSQL) or a WAL checkpoint (SQLite). */
  finish(): Promise<void>;
  close(): Promise<void>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function openSqliteSeedDb(file: string): SeedDb {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // A crash during the seed only means seeding again.
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -262144');
  // Tickets and comments written here queue their search documents; each batch indexes them, as
  // the application's commits do.
  const searchQueue = ticketSearchQueueOf(db);
  return {
    dialect: 'sqlite',
    async copyRow(table, keyColumn, templateId, count, overrides) {
      const columns = (db.prepare(`pragma table_info(${quote(table)})`).all() as { name: string }[]).map((c) => c.name);
      const template = db.prepare(`select * from ${quote(table)} where ${quote(keyColumn)} = ?`).get(templateId) as
        | Record<string, Value>
        | undefined;
      if (!template) {
        throw new Error(`no ${table} row ${templateId} to copy`);
      }
      const insert = db.prepare(
        `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      const makers = columns.map((column) => overrides[column] ?? (() => template[column] ?? null));
      const insertMany = db.transaction((from: number, to: number) => {
        for (let index = from; index < to; index++) {
          insert.run(makers.map((make) => make(index)));
        }
        searchQueue.index();
      });
      for (let from = 0; from < count; from += 50_000) {
        insertMany(from, Math.min(count, from + 50_000));
      }
    },
    async query<Row>(sql: string, params: Value[] = []) {
      return db.prepare(sql).all(params) as Row[];
    },
    async exec(sql, params = []) {
      db.prepare(sql).run(params);
      searchQueue.index();
    },
    isoOf: (column) => column,
    async finish() {
      searchQueue.index();
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() {
      db.close();
    },
  };
}

export async function openPostgresSeedDb(url: string): Promise<SeedDb> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (sql: string) => {
    let next = 0;
    return sql.replace(/\?/g, () => `$${++next}`);
  };
  return {
    dialect: 'postgres',
    async copyRow(table, keyColumn, templateId, count, overrides) {
      const { rows } = await client.query<{ column_name: string; udt_name: string }>(
        // Generated columns (a search table's tsvector) are computed by PostgreSQL, never inserted.
        `select column_name, udt_name from information_schema.columns
         where table_schema = current_schema() and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
        [table],
      );
      const overridden = rows.filter((column) => overrides[column.column_name]);
      const missing = Object.keys(overrides).filter((name) => !rows.some((column) => column.column_name === name));
      if (missing.length > 0) {
        throw new Error(`${table} has no column ${missing.join(', ')}`);
      }
      // One statement per batch: the overridden columns come from arrays (unnest), the rest from the template.
      const sql = `insert into ${quote(table)} (${rows.map((c) => quote(c.column_name)).join(', ')})
        select ${rows.map((c) => (overrides[c.column_name] ? `u.${quote(c.column_name)}` : `t.${quote(c.column_name)}`)).join(', ')}
        from unnest(${overridden.map((c, i) => `$${i + 1}::${c.udt_name}[]`).join(', ')})
          as u(${overridden.map((c) => quote(c.column_name)).join(', ')})
        cross join (select * from ${quote(table)} where ${quote(keyColumn)} = $${overridden.length + 1}) t`;
      const batch = 20_000;
      for (let from = 0; from < count; from += batch) {
        const to = Math.min(count, from + batch);
        const arrays = overridden.map((column) => {
          const make = overrides[column.column_name] as (index: number) => Value;
          const values: Value[] = [];
          for (let index = from; index < to; index++) {
            values.push(make(index));
          }
          return values;
        });
        await client.query(sql, [...arrays, templateId]);
      }
    },
    async query<Row>(sql: string, params: Value[] = []) {
      return (await client.query(numbered(sql), params)).rows as Row[];
    },
    async exec(sql, params = []) {
      await client.query(numbered(sql), params);
    },
    isoOf: (column) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    async finish() {
      await client.query('vacuum analyze');
    },
    async close() {
      await client.end();
    },
  };
}

/** Drops and creates a PostgreSQL database through the administrative URL. */
export async function recreatePostgresDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${quote(name)} with (force)`);
    await client.query(`create database ${quote(name)}`);
  } finally {
    await client.end();
  }
}

export async function postgresReachable(adminUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? 'unknown';
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function postgresDatabaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

export function readMetaOf(location: DatasetLocation): DatasetMeta {
  return JSON.parse(readFileSync(location.metaFile, 'utf8')) as DatasetMeta;
}

/** The comments the write load added, removed so every run starts from the seeded dataset. */
export async function removeWrittenComments(location: DatasetLocation, meta: DatasetMeta): Promise<void> {
  const db = location.databaseUrl ? await openPostgresSeedDb(location.databaseUrl) : openSqliteSeedDb(sqliteFile(location));
  try {
    await db.exec('delete from ticket_comments where ticket_id = ?', [meta.writeTicketId]);
    await db.finish();
  } finally {
    await db.close();
  }
}
