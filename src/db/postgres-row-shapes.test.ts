import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase } from '../../test/harness.js';
import { rowShapesSupported } from './postgres-row-shapes.js';
import { readAtOnce } from './read-at-once.js';

// Named statements read with the shape their connection found at their first run, against pg's own
// reading of the same rows (a statement without parameters is unnamed and goes through pg as it is).
describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL rows read with their statement shape', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await sql`create table shape_probe (
      id text primary key, size bigint, at timestamptz, flag boolean, doc jsonb, day date, note text)`.execute(database.db);
    await sql`insert into shape_probe values
      ('a', 9007199254740991, '2026-11-30 10:00:00.123+00', true, '{"k": [1, 2]}', '2026-11-30', 'first'),
      ('b', null, null, null, null, null, null),
      ('c', 3, '2026-12-01 00:00:00+00', false, '"text"', '2026-12-01', 'third')`.execute(database.db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const named = (id: string) => sql<Record<string, unknown>>`select * from shape_probe where id = ${id}`;
  const unnamed = (id: string) => sql<Record<string, unknown>>`select * from shape_probe where id = ${sql.lit(id)}`;

  it('is what the installed pg keeps, so an upgrade that moves it fails here, not silently', () => {
    expect(rowShapesSupported).toBe(true);
  });

  it("answers each execution's rows as pg does, the first and every later one, values and nulls alike", async () => {
    // Several rounds over a pool of five connections: every connection runs the statement more than once.
    for (let round = 0; round < 4; round++) {
      for (const id of ['a', 'b', 'c', 'missing']) {
        const [shaped, plain] = await Promise.all([named(id).execute(database.db), unnamed(id).execute(database.db)]);
        expect(shaped.rows).toStrictEqual(plain.rows);
        expect(shaped.rows.map((row) => Object.keys(row))).toStrictEqual(plain.rows.map((row) => Object.keys(row)));
      }
    }
    const { rows } = await named('a').execute(database.db);
    expect(rows[0]).toMatchObject({
      id: 'a',
      size: 9007199254740991,
      at: '2026-11-30T10:00:00.123Z',
      flag: true,
      day: '2026-11-30',
    });
  });

  it('gives every execution rows of its own', async () => {
    const first = (await named('c').execute(database.db)).rows[0] as Record<string, unknown>;
    first.note = 'changed by the caller';
    const second = (await named('c').execute(database.db)).rows[0] as Record<string, unknown>;
    expect(second).not.toBe(first);
    expect(second.note).toBe('third');
  });

  it('reads through the pooled reader (pg-pool callbacks) as through Kysely', async () => {
    const query = database.db
      .selectFrom('shape_probe' as never)
      .selectAll()
      .where('id' as never, 'in', ['a', 'b'] as never)
      .orderBy('id' as never)
      .compile();
    for (let round = 0; round < 8; round++) {
      const viaReader = await readAtOnce(database.db, query);
      const viaKysely = await database.db.executeQuery(query);
      expect(viaReader?.rows).toStrictEqual(viaKysely.rows);
      expect(viaReader?.rows).toHaveLength(2);
    }
  });

  it("rejects a failed execution with PostgreSQL's error, and the statement keeps its shape after", async () => {
    const divide = (by: number) =>
      sql<{ id: string; quotient: number }>`select id, 10 / ${by}::int as quotient from shape_probe where id = 'c'`;
    expect((await divide(2).execute(database.db)).rows).toStrictEqual([{ id: 'c', quotient: 5 }]);
    await expect(divide(0).execute(database.db)).rejects.toMatchObject({ code: '22012' });
    for (let round = 0; round < 6; round++) {
      expect((await divide(5).execute(database.db)).rows).toStrictEqual([{ id: 'c', quotient: 2 }]);
    }
  });

  it('answers a statement without rows (an update) with its row count', async () => {
    for (let round = 0; round < 6; round++) {
      const result = await sql`update shape_probe set note = ${`round ${round}`} where id in ('a', 'c')`.execute(database.db);
      expect(result.numAffectedRows).toBe(2n);
    }
  });
});
