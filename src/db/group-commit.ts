import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { onlyReads } from './read-at-once.js';

/**
 * SQLite with group commit: the transactions of one turn of the event loop share one COMMIT.
 *
 * A commit is most of what a small write costs on SQLite: the WAL receives every page the
 * transaction dirtied (the table, each index, the full-text index flushing its pending terms),
 * about 270 µs for a comment against 90 µs for its INSERT. Requests that arrive together are
 * handled in the same turn of the event loop, one after the other (better-sqlite3 is synchronous,
 * so a transaction usually runs to its end in microtasks), and each writes the same few pages.
 *
 * So the first transaction of a turn opens the real transaction (`begin`), and every transaction
 * of the turn runs inside it as a savepoint: its own rollback undoes only its own work (`rollback
 * to`), and its commit releases the savepoint. The real COMMIT runs once, after the turn's I/O
 * callbacks (`setImmediate`). Nobody is told a write succeeded before it is committed: releasing
 * the connection waits for the group's COMMIT, and so does anything else that ran a statement
 * while the group was open (it may have read the group's writes). If the COMMIT fails, or SQLite
 * rolls the whole transaction back (a full disk), every member's call fails.
 *
 * Still one writer, as SQLite has always been here: the connection is held for the whole of a
 * transaction, and other callers wait for it (Kysely's mutex).
 */
export interface GroupCommitDatabase {
  readonly inTransaction: boolean;
  /** The file, by which connections of one process to the same file find each other's groups. */
  readonly name: string;
}

/** Kysely's SQLite settings, on a database that tells whether a transaction is open and its file. */
type GroupCommitConfig = SqliteDialectConfig & {
  database: SqliteDialectConfig['database'] & GroupCommitDatabase;
  /**
   * Work the writes leave for their commit (indexing queued search documents): run synchronously
   * on the held connection, in the group's transaction just before its COMMIT, and after a write
   * made outside any transaction. Its failure fails the group, or that write's call.
   */
  beforeCommit?: () => void;
};

interface Group {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

const MEMBER = 'group_commit_member';

/**
 * The open groups of every connection of this process, by file. A second connection to a file (a
 * test standing in for a second process) must not write while another holds a group open: SQLite
 * would make it wait for the lock synchronously, on the very thread that has to run the COMMIT.
 * So it waits for those groups first, asynchronously. Separate processes need none of this.
 */
const openGroups = new Map<string, Set<Group>>();

function shared(file: string): boolean {
  return file !== '' && file !== ':memory:';
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A group whose members all rolled back has nobody waiting for it.
  committed.catch(() => undefined);
  return { committed, resolve, reject };
}

class GroupCommitSqliteDriver extends SqliteDriver implements Driver {
  readonly #sqlite: GroupCommitDatabase;
  /** The database itself (Kysely may be given a function making it; this file always gets the database). */
  readonly #database: SqliteDatabase | undefined;
  readonly #beforeCommit: () => void;
  /** The open real transaction, if any. */
  #group: Group | null = null;
  /** The group the connection's current holder ran statements in, which it must see committed. */
  #joined: Group | null = null;

  constructor(config: GroupCommitConfig) {
    super(config);
    this.#sqlite = config.database;
    this.#database = typeof config.database === 'function' ? undefined : config.database;
    this.#beforeCommit = config.beforeCommit ?? (() => undefined);
  }

  /**
   * A statement that only reads, run now when nothing it could see is uncommitted: no group open on
   * the file, no transaction on the connection. Kysely's connection, its mutex and its promises
   * cost more than a read by key does in SQLite; a read needs none of them when no transaction is
   * open, since better-sqlite3 runs it inside this call. Undefined when it must go through Kysely.
   */
  readAtOnce(query: CompiledQuery): QueryResult<unknown> | undefined {
    if (
      !onlyReads(query) ||
      !this.#database ||
      this.#group !== null ||
      this.#sqlite.inTransaction ||
      openGroups.has(this.#sqlite.name)
    ) {
      return undefined;
    }
    return { rows: this.#database.prepare(query.sql).all(query.parameters) };
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#joined = this.#group;
    return this.#waitingForOthers(connection);
  }

  /**
   * The connection, each statement of which first waits for other connections' open groups on the
   * file; a write outside a transaction, which committed on its own, is followed by the work left
   * for its commit.
   */
  #waitingForOthers(connection: DatabaseConnection): DatabaseConnection {
    const execute = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      const result = await connection.executeQuery<R>(query);
      if (!this.#sqlite.inTransaction && !onlyReads(query)) {
        this.#beforeCommit();
      }
      return result;
    };
    return {
      executeQuery: (query) => this.#whenNoOtherGroup(() => execute(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#group && !this.#sqlite.inTransaction) {
      this.#failGroup();
    }
    if (!this.#group) {
      const group = newGroup();
      // Registered in the step that found no other group open: at most one group per file is open.
      await this.#whenNoOtherGroup(async () => this.#open(group));
      try {
        await connection.executeQuery(CompiledQuery.raw('begin'));
      } catch (error) {
        this.#failGroup();
        throw error;
      }
      setImmediate(() => void this.#commitGroup(group));
    }
    this.#joined = this.#group;
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${MEMBER}`));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#sqlite.inTransaction) {
      // The member's own error is what its caller hears, not the group's.
      this.#joined = null;
      this.#failGroup();
      return;
    }
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${MEMBER}`));
    await connection.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
    // Its work is undone; the group's fate is no longer its own.
    this.#joined = null;
  }

  override async releaseConnection(): Promise<void> {
    const joined = this.#joined;
    this.#joined = null;
    await super.releaseConnection();
    if (joined) {
      await joined.committed;
    }
  }

  /**
   * Closing SQLite with a transaction open rolls it back, so the open group commits first. At
   * shutdown, requests whose clients already left are still running (the HTTP server closes once
   * their sockets are gone); their members answered into a group whose COMMIT was only waiting for
   * the next turn. Acquiring the connection waits for a member still running.
   */
  override async destroy(): Promise<void> {
    const group = this.#group;
    if (group) {
      await this.#commitGroup(group);
    }
    await super.destroy();
  }

  /**
   * SQLite rolled back the real transaction itself (an I/O error, a full disk, a statement's
   * ROLLBACK conflict clause): the members that committed into it lost their work too.
   */
  #failGroup(): void {
    this.#group?.reject(new Error('the database rolled back a group of transactions after an error'));
    this.#close();
  }

  /** Registers the group as this connection's open one, and as open on its file for the process's other connections. */
  #open(group: Group): void {
    this.#group = group;
    if (shared(this.#sqlite.name)) {
      const groups = openGroups.get(this.#sqlite.name) ?? new Set();
      groups.add(group);
      openGroups.set(this.#sqlite.name, groups);
    }
  }

  #close(): void {
    const group = this.#group;
    this.#group = null;
    const groups = group ? openGroups.get(this.#sqlite.name) : undefined;
    if (group && groups) {
      groups.delete(group);
      if (groups.size === 0) {
        openGroups.delete(this.#sqlite.name);
      }
    }
  }

  /**
   * Runs `run` once no other connection of this process holds a group open on the file. The last
   * check and the start of `run` are one synchronous step (better-sqlite3 executes a statement
   * inside the call), so no group opens between them.
   */
  #whenNoOtherGroup<T>(run: () => Promise<T>): Promise<T> {
    const groups = openGroups.get(this.#sqlite.name);
    if (!groups || (groups.size === 1 && this.#group !== null && groups.has(this.#group))) {
      return run();
    }
    const others = [...groups].filter((group) => group !== this.#group);
    return Promise.allSettled(others.map((group) => group.committed)).then(() => this.#whenNoOtherGroup(run));
  }

  async #commitGroup(group: Group): Promise<void> {
    // Waits for a transaction still running (it joins the group, and the COMMIT follows it).
    const connection = await super.acquireConnection();
    try {
      if (this.#group !== group) {
        return;
      }
      if (!this.#sqlite.inTransaction) {
        this.#failGroup();
        return;
      }
      this.#close();
      try {
        this.#beforeCommit();
        await connection.executeQuery(CompiledQuery.raw('commit'));
        group.resolve();
      } catch (error) {
        if (this.#sqlite.inTransaction) {
          await connection.executeQuery(CompiledQuery.raw('rollback'));
        }
        group.reject(error);
      }
    } finally {
      await super.releaseConnection();
    }
  }
}

/** Kysely's SQLite dialect, its transactions committed in groups. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #config: GroupCommitConfig;

  constructor(config: GroupCommitConfig) {
    super(config);
    this.#config = config;
  }

  #driver: GroupCommitSqliteDriver | undefined;

  override createDriver(): Driver {
    this.#driver = new GroupCommitSqliteDriver(this.#config);
    return this.#driver;
  }

  /**
   * See `GroupCommitSqliteDriver.readAtOnce` (undefined before Kysely made the driver), answered as
   * `db/read-at-once.ts` takes it: a failure is a rejected promise, as through Kysely.
   */
  readAtOnce(query: CompiledQuery): Promise<QueryResult<unknown>> | undefined {
    try {
      const result = this.#driver?.readAtOnce(query);
      return result ? Promise.resolve(result) : undefined;
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
