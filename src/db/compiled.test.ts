import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase } from '../../test/harness.js';
import { prepareQuery, prepareQueryOfInput } from './compiled.js';
import { readAtOnce } from './read-at-once.js';

interface Probe {
  id: string;
  name: string;
  size: number;
  kind: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a scratch table outside the application's schema
const insertProbe = prepareQuery<{ id: string; name: string; size: number }, Probe>((db: any, param) =>
  db
    .insertInto('compiled_probe')
    .values({ id: param('id'), name: param('name'), size: param('size'), kind: 'fixed' })
    .returningAll(),
);
// biome-ignore lint/suspicious/noExplicitAny: as above
const findProbes = prepareQuery<{ minimum: number }, Probe>((db: any, param) =>
  db.selectFrom('compiled_probe').selectAll().where('size', '>=', param('minimum')).where('kind', '=', 'fixed').orderBy('id'),
);

/** A list filtered on any number of names and a minimum size, newest first, `limit` written into the SQL. */
interface ProbeFilter {
  names?: string[];
  minimum?: number;
  limit: number;
}

let builds = 0;
const filterProbes = prepareQueryOfInput<ProbeFilter, Probe>(
  (filter, slot) => ({
    names: filter.names?.map((name, index) => slot(`names.${index}`, name)),
    minimum: filter.minimum === undefined ? undefined : slot('minimum', filter.minimum),
    limit: filter.limit,
  }),
  // biome-ignore lint/suspicious/noExplicitAny: as above
  (db: any, filter) => {
    builds++;
    let query = db.selectFrom('compiled_probe').selectAll();
    if (filter.names) {
      query = query.where('name', 'in', filter.names);
    }
    if (filter.minimum !== undefined) {
      query = query.where('size', '>=', filter.minimum);
    }
    return query.orderBy('id', 'desc').limit(sql.lit(filter.limit));
  },
);

describe.each(DIALECTS)('queries compiled once on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await sql`create table compiled_probe (id text primary key, name text not null, size integer not null, kind text not null)`.execute(
      database.db,
    );
  });
  afterAll(() => database?.drop());

  it('runs with new values each time, keeps the constants, and works inside a transaction', async () => {
    const first = await insertProbe.execute(database.db, { id: 'a', name: 'First', size: 1 });
    expect(first.rows).toEqual([{ id: 'a', name: 'First', size: 1, kind: 'fixed' }]);
    await database.db.transaction().execute(async (trx) => {
      await insertProbe.execute(trx, { id: 'b', name: "O'Brien; drop table x", size: 5 });
      await insertProbe.execute(trx, { id: 'c', name: 'Third', size: 9 });
    });
    expect((await findProbes.execute(database.db, { minimum: 5 })).rows.map((row) => row.id)).toEqual(['b', 'c']);
    expect((await findProbes.execute(database.db, { minimum: 0 })).rows.map((row) => row.name)).toEqual([
      'First',
      "O'Brien; drop table x",
      'Third',
    ]);
  });

  it('builds a statement per shape of the input, and binds every value of that shape', async () => {
    await insertProbe.execute(database.db, { id: 'p1', name: 'Alpha', size: 20 });
    await insertProbe.execute(database.db, { id: 'p2', name: 'Beta', size: 30 });
    await insertProbe.execute(database.db, { id: 'p3', name: 'Gamma', size: 40 });
    const ids = async (filter: ProbeFilter) => (await filterProbes.execute(database.db, filter)).rows.map((row) => row.id);
    const before = builds;
    expect(await ids({ names: ['Alpha', 'Gamma'], limit: 5 })).toEqual(['p3', 'p1']);
    expect(await ids({ names: ['Beta', 'Alpha'], limit: 5 })).toEqual(['p2', 'p1']);
    expect(await ids({ names: ['Beta'], minimum: 25, limit: 5 })).toEqual(['p2']);
    expect(await ids({ names: ['Alpha'], minimum: 25, limit: 5 })).toEqual([]);
    expect(await ids({ minimum: 30, limit: 1 })).toEqual(['p3']);
    expect(await ids({ minimum: 10, limit: 2 })).toEqual(['p3', 'p2']);
    // Shapes: two names; one name and a minimum; a minimum with each of two page sizes.
    expect(builds - before).toBe(4);
  });

  it('reads around Kysely outside a transaction, and through the transaction inside one', async () => {
    await insertProbe.execute(database.db, { id: 'r1', name: 'Committed', size: 100 });
    const query = findProbes.compile(database.db, { minimum: 100 });
    const outside = readAtOnce(database.db, query);
    expect(outside).toBeDefined();
    expect((await outside)?.rows.map((row) => row.id)).toEqual(['r1']);
    await database.db.transaction().execute(async (trx) => {
      await insertProbe.execute(trx, { id: 'r2', name: 'Uncommitted', size: 100 });
      // The transaction's own read goes through it and sees its write; another sees only what committed.
      expect(readAtOnce(trx, findProbes.compile(trx, { minimum: 100 }))).toBeUndefined();
      expect((await findProbes.execute(trx, { minimum: 100 })).rows.map((row) => row.id)).toEqual(['r1', 'r2']);
      if (dialect === 'postgres') {
        expect((await readAtOnce(database.db, query))?.rows.map((row) => row.id)).toEqual(['r1']);
      }
    });
    // A write that answers rows goes through Kysely; a failing read is a rejected promise.
    expect(readAtOnce(database.db, insertProbe.compile(database.db, { id: 'r3', name: 'Write', size: 1 }))).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: a table that does not exist
    const missing = prepareQuery<{ id: string }, Probe>((db: any, param) =>
      db.selectFrom('no_such_table').selectAll().where('id', '=', param('id')),
    );
    await expect(missing.execute(database.db, { id: 'x' })).rejects.toThrow(/no_such_table/);
  });
});
