import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareQuery } from './compiled.js';
import { connectSqlite, type DatabaseHandle } from './connect.js';
import { readAtOnce } from './read-at-once.js';

// Group commit is SQLite's alone (PostgreSQL commits each transaction on its own connection), so
// these tests open SQLite files; every feature's tests run it on both databases through HTTP.
describe('SQLite group commit', () => {
  let dir: string;
  let handle: DatabaseHandle;
  // biome-ignore lint/suspicious/noExplicitAny: a scratch table outside the app's schema
  let db: Kysely<any>;
  /** A second connection to the file: it sees only what is committed. */
  let observer: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    handle = connectSqlite(join(dir, 'test.db'));
    db = handle.db;
    await sql`create table notes (id integer primary key, body text not null unique)`.execute(db);
    observer = new Database(join(dir, 'test.db'), { readonly: true });
  });

  afterEach(async () => {
    observer.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const committedBodies = () =>
    (observer.prepare('select body from notes order by id').all() as { body: string }[]).map((row) => row.body);

  const insertNote = (body: string) =>
    db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ body }).execute();
      return committedBodies();
    });

  it('commits the transactions of one turn together, and answers each only once it is committed', async () => {
    const seenInside = await Promise.all(['a', 'b', 'c', 'd'].map(insertNote));
    // Inside each transaction nothing of the turn was committed yet: one COMMIT came after them all.
    for (const seen of seenInside) {
      expect(seen).toEqual([]);
    }
    expect(committedBodies()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('commits an open group before the database closes, rather than losing its members to the close', async () => {
    // Both members have written (the second still holds the connection), and the database closes in
    // the same turn, before the group's own COMMIT.
    let written = 0;
    let bothWritten!: () => void;
    const wrote = new Promise<void>((resolve) => {
      bothWritten = resolve;
    });
    const members = ['left 1', 'left 2'].map((body) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ body }).execute();
        if (++written === 2) {
          bothWritten();
        }
      }),
    );
    await wrote;
    const closed = handle.close();
    await expect(Promise.all(members)).resolves.toHaveLength(2);
    await closed;
    expect(committedBodies()).toEqual(['left 1', 'left 2']);
    handle = connectSqlite(join(dir, 'test.db'));
  });

  it('sees a transaction committed as soon as it answers, turn after turn', async () => {
    for (const body of ['first', 'second', 'third']) {
      await insertNote(body);
      expect(committedBodies()).toContain(body);
    }
  });

  it('rolls back only the member that failed; the others of its group commit', async () => {
    const results = await Promise.allSettled([
      insertNote('kept 1'),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ body: 'undone' }).execute();
        throw new Error('the caller changed its mind');
      }),
      insertNote('kept 2'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('the caller changed its mind');
    expect(committedBodies()).toEqual(['kept 1', 'kept 2']);
  });

  it('makes a statement that ran inside an open group wait for its commit', async () => {
    const [, count] = await Promise.all([
      insertNote('written'),
      db
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow(),
    ]);
    // The read ran after the transaction, in its group, and answered after the COMMIT.
    expect(Number(count.count)).toBe(1);
    expect(committedBodies()).toEqual(['written']);
  });

  it('runs a compiled read at once when no group is open, and through the group (answering after its commit) when one is', async () => {
    const countNotes = prepareQuery<Record<string, never>, { count: number }>((built) =>
      built.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('count')),
    );
    await insertNote('before');
    const query = countNotes.compile(db, {});
    // No group open: read in the call itself, before any promise settles.
    expect(readAtOnce(db, query)).toBeDefined();
    // A transaction is open (its group with it): the read waits for the group, and sees its write committed.
    let readInside: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ body: 'inside' }).execute();
      expect(readAtOnce(db, query)).toBeUndefined();
      readInside = countNotes.execute(db, {});
    });
    const { rows } = (await readInside) as { rows: { count: number }[] };
    expect(Number(rows[0]?.count)).toBe(2);
    expect(committedBodies()).toEqual(['before', 'inside']);
    // A transaction's own reads never go around it, nor does a write that answers rows.
    await db.transaction().execute(async (trx) => {
      expect(readAtOnce(trx, query)).toBeUndefined();
    });
    const insertReturning = prepareQuery<{ body: string }, { id: number }>((built, param) =>
      built
        .insertInto('notes')
        .values({ body: param('body') })
        .returning('id'),
    );
    expect(readAtOnce(db, insertReturning.compile(db, { body: 'not at once' }))).toBeUndefined();
    expect(committedBodies()).toEqual(['before', 'inside']);
  });

  it('fails every member when SQLite rolls the whole transaction back, and starts afresh after', async () => {
    await insertNote('existing');
    const results = await Promise.allSettled([
      insertNote('lost with its group'),
      db.transaction().execute(async (trx) => {
        // ON CONFLICT ROLLBACK ends the real transaction, not just the statement.
        await sql`insert or rollback into notes (body) values ('existing')`.execute(trx);
      }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/rolled back a group/);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/UNIQUE/);
    expect(committedBodies()).toEqual(['existing']);

    await insertNote('after');
    expect(committedBodies()).toEqual(['existing', 'after']);
  });

  it("lets a second connection of the process write while the first holds a group open, where SQLite's wait for the lock would end in SQLITE_BUSY", async () => {
    // Tests stand in for two processes with two connections in one: SQLite's busy wait would
    // block the thread that has to run the first connection's COMMIT.
    const second = connectSqlite(join(dir, 'test.db'));
    try {
      await Promise.all([
        insertNote('from the first'),
        second.db.transaction().execute((trx) => sql`insert into notes (body) values ('from the second')`.execute(trx)),
        insertNote('from the first again'),
      ]);
      expect(committedBodies().sort()).toEqual(['from the first', 'from the first again', 'from the second']);
    } finally {
      await second.close();
    }
  });
});
