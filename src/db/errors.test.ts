import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase } from '../../test/harness.js';
import { translateDbError } from './errors.js';

/** Real statements on real databases: what each driver throws for bad values, and for a real fault. */
const CASES = {
  sqlite: {
    input: [
      ['a value that is not an integer where one must be', sql`select 1 limit 'ten'`],
      ['a failed CHECK', sql`insert into bad_input_probe (positive) values (-1)`],
    ],
    fault: sql`select * from no_such_table`,
  },
  postgres: {
    input: [
      ['an integer out of range', sql`select 2147483648::int`],
      ['a value too long', sql`insert into bad_input_probe (short) values ('toolong')`],
      ['a failed CHECK', sql`insert into bad_input_probe (positive) values (-1)`],
      ['an invalid text representation', sql`select 'abc'::int`],
      ['a NUL byte', sql`select convert_from('\\x00'::bytea, 'UTF8')`],
      ['a date out of range', sql`select '294277-01-01'::timestamptz`],
      ['a negative OFFSET', sql`select 1 offset -1`],
      [
        'a tsvector too large',
        sql`select to_tsvector('simple', string_agg(md5(i::text), ' ')) from generate_series(1, 200000) i`,
      ],
    ],
    fault: sql`select * from no_such_table`,
  },
} as const;

describe.each(DIALECTS)('driver errors on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await sql`create table bad_input_probe (short varchar(3), positive integer check (positive > 0))`.execute(database.db);
  });
  afterAll(() => database?.drop());

  async function errorOf(query: { execute(db: typeof database.db): Promise<unknown> }): Promise<unknown> {
    try {
      await query.execute(database.db);
    } catch (error) {
      return error;
    }
    throw new Error('the statement did not fail');
  }

  it.each(CASES[dialect].input.map(([name, query]) => [name, query] as const))('%s is bad input: 400', async (_, query) => {
    const translated = translateDbError(await errorOf(query));
    expect(translated?.code).toBe('VALIDATION');
    expect(translated?.status).toBe(400);
    expect(translated?.message).toBe('A value is out of range, malformed or too long to be stored');
  });

  it('a missing table is a fault: not translated, so it answers 500', async () => {
    expect(translateDbError(await errorOf(CASES[dialect].fault))).toBeNull();
  });
});
