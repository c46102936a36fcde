import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase } from '../../test/harness.js';
import { prepareQuery } from './compiled.js';

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
});
