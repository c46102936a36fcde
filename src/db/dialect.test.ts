import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase } from '../../test/harness.js';
import { AppError } from '../lib/errors.js';
import { connectPostgres } from './connect.js';
import type { DB } from './database.js';
import { columnTypes, escapeLike, forUpdate, inJsonArray, likeOperator, readBoolean, readJson, writeJson } from './dialect.js';
import { translateDbError } from './errors.js';

/** A table made only for this file, with one column of each type `columnTypes` chooses. */
interface ScratchTable {
  id: number;
  slug: string;
  flag: boolean | number;
  payload: string | null;
  happened_at: string;
}

type ScratchDb = DB & { scratch: ScratchTable };

const TIMESTAMP = '2026-01-15T09:00:00.123Z';

describe.each(DIALECTS)('dialect helpers on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Kysely<ScratchDb>;
  let nextId = 0;

  /** A scratch row; the id is unique across the file so tests never collide. */
  async function insertRow(values: Partial<Omit<ScratchTable, 'id'>> = {}): Promise<number> {
    const id = ++nextId;
    await db
      .insertInto('scratch')
      .values({
        id,
        slug: values.slug ?? `row-${id}`,
        flag: values.flag ?? false,
        payload: values.payload ?? null,
        happened_at: values.happened_at ?? TIMESTAMP,
      })
      .execute();
    return id;
  }

  async function readRow(id: number) {
    return db.selectFrom('scratch').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db.withTables<{ scratch: ScratchTable }>();
    const types = columnTypes(db);
    await db.schema
      .createTable('scratch')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('slug', 'text', (col) => col.notNull())
      .addColumn('flag', types.boolean, (col) => col.notNull())
      .addColumn('payload', types.json)
      .addColumn('happened_at', types.timestamp, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('scratch_slug').on('scratch').column('slug').unique().execute();
  });
  afterAll(() => database.drop());

  it('reads booleans written as true/false back as true/false', async () => {
    const yes = await insertRow({ flag: true });
    const no = await insertRow({ flag: false });
    expect(readBoolean((await readRow(yes)).flag)).toBe(true);
    expect(readBoolean((await readRow(no)).flag)).toBe(false);
    const trueIds = await db.selectFrom('scratch').select('id').where('flag', '=', true).where('id', 'in', [yes, no]).execute();
    expect(trueIds).toEqual([{ id: yes }]);
  });

  it('round-trips JSON objects through writeJson and readJson; a null column stays null', async () => {
    const value = {
      nested: { deeper: { list: [1, 2.5, -3, { x: null }], flag: false } },
      array: ['a', 'b', ['c', 'd']],
      unicode: 'Grüße, 日本語, emoji 🎉, quote " and backslash \\',
      empty: {},
      emptyList: [],
    };
    const withJson = await insertRow({ payload: writeJson(value) });
    const withArray = await insertRow({ payload: writeJson([{ id: 1 }, 'two', 3]) });
    const withNull = await insertRow({ payload: writeJson(null) });
    const withUndefined = await insertRow({ payload: writeJson(undefined) });

    expect(readJson((await readRow(withJson)).payload)).toEqual(value);
    expect(readJson((await readRow(withArray)).payload)).toEqual([{ id: 1 }, 'two', 3]);
    expect((await readRow(withNull)).payload).toBeNull();
    expect(readJson((await readRow(withNull)).payload)).toBeNull();
    expect(readJson((await readRow(withUndefined)).payload)).toBeNull();
  });

  it('stores through writeJson strings from outside that jsonb refuses as they are: NUL and lone surrogates', async () => {
    const nul = String.fromCharCode(0);
    // What a tool or a model may hand back: NUL bytes, half of an emoji's surrogate pair.
    const output = { text: `before${nul}after`, [`key${nul}`]: ['\uD83D', 'x\uDE00y', 'pair \uD83D\uDE00'] };
    const id = await insertRow({ payload: writeJson(output) });
    expect(readJson((await readRow(id)).payload)).toEqual({
      text: 'beforeafter',
      key: ['\uFFFD', 'x\uFFFDy', 'pair \uD83D\uDE00'],
    });
  });

  it('reads a timestamp back as the identical ISO string with milliseconds', async () => {
    const id = await insertRow({ happened_at: TIMESTAMP });
    expect((await readRow(id)).happened_at).toBe(TIMESTAMP);
  });

  it('reads instants back with three-digit milliseconds whatever fraction PostgreSQL prints (none, trimmed, microseconds)', async () => {
    // PostgreSQL prints `09:00:00+00`, `09:00:00.5+00`, `09:00:00.12+00` for these.
    for (const at of [
      '2026-01-15T09:00:00.000Z',
      '2026-01-15T09:00:00.500Z',
      '2026-01-15T09:00:00.120Z',
      '1999-12-31T23:59:59.999Z',
    ]) {
      const id = await insertRow({ happened_at: at, slug: `fraction-${at}` });
      expect((await readRow(id)).happened_at).toBe(at);
    }
    if (dialect === 'postgres') {
      // Microseconds are cut to milliseconds, as Date does, not rounded.
      const micros = await sql<{ at: string }>`select cast('2026-01-15 09:00:00.123987+00' as timestamptz) as at`.execute(db);
      expect(micros.rows[0]?.at).toBe('2026-01-15T09:00:00.123Z');
      const offset = await sql<{ at: string }>`select cast('2026-01-15 09:00:00.5-03:30' as timestamptz) as at`.execute(db);
      expect(offset.rows[0]?.at).toBe('2026-01-15T12:30:00.500Z');
    }
  });

  it('orders by the timestamp column chronologically', async () => {
    const instants = [
      '2026-01-15T09:00:00.124Z',
      '2025-12-31T23:59:59.999Z',
      '2026-01-15T09:00:00.000Z',
      '2026-01-15T10:00:00.000Z',
      '2026-01-14T23:00:00.500Z',
    ];
    const ids: number[] = [];
    for (const at of instants) {
      ids.push(await insertRow({ happened_at: at, slug: `order-${at}` }));
    }
    const rows = await db.selectFrom('scratch').select('happened_at').where('id', 'in', ids).orderBy('happened_at').execute();
    expect(rows.map((row) => row.happened_at)).toEqual([...instants].sort());
  });

  it('counts come back as JavaScript numbers', async () => {
    await insertRow();
    const row = await db
      .selectFrom('scratch')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    const rows = (await db.selectFrom('scratch').select('id').execute()).length;
    expect(typeof row.count).toBe('number');
    expect(row.count).toBe(rows);
    const raw = await sql<{ count: unknown }>`select count(*) as count from scratch`.execute(db);
    expect(raw.rows[0]?.count).toBe(rows);
  });

  it('upserts alike: doNothing keeps the first row, doUpdateSet replaces it', async () => {
    const id = await insertRow({ slug: 'upsert-me', flag: false });
    const ignored = await db
      .insertInto('scratch')
      .values({ id: ++nextId, slug: 'upsert-me', flag: true, payload: null, happened_at: TIMESTAMP })
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    expect(Number(ignored.numInsertedOrUpdatedRows)).toBe(0);
    expect(readBoolean((await readRow(id)).flag)).toBe(false);

    const updated = await db
      .insertInto('scratch')
      .values({ id: ++nextId, slug: 'upsert-me', flag: true, payload: writeJson({ v: 2 }), happened_at: TIMESTAMP })
      .onConflict((oc) =>
        oc.column('slug').doUpdateSet((eb) => ({ flag: eb.ref('excluded.flag'), payload: eb.ref('excluded.payload') })),
      )
      .executeTakeFirst();
    expect(Number(updated.numInsertedOrUpdatedRows)).toBe(1);
    const row = await readRow(id);
    expect(readBoolean(row.flag)).toBe(true);
    expect(readJson(row.payload)).toEqual({ v: 2 });
    const bySlug = await db.selectFrom('scratch').select('id').where('slug', '=', 'upsert-me').execute();
    expect(bySlug).toEqual([{ id }]);

    const inserted = await db
      .insertInto('scratch')
      .values({ id: ++nextId, slug: 'upsert-new', flag: true, payload: null, happened_at: TIMESTAMP })
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    expect(Number(inserted.numInsertedOrUpdatedRows)).toBe(1);
  });

  it('translates a unique violation of the driver into CONFLICT', async () => {
    await insertRow({ slug: 'taken' });
    const error = await insertRow({ slug: 'taken' }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).not.toBeNull();
    const translated = translateDbError(error);
    expect(translated).toBeInstanceOf(AppError);
    expect(translated?.code).toBe('CONFLICT');
    expect(translated?.status).toBe(409);
    expect(translated?.cause).toBe(error);
    expect(translateDbError(new Error('something else'))).toBeNull();
  });

  it('runs forUpdate inside a transaction', async () => {
    const id = await insertRow({ slug: 'locked', flag: false });
    const query = forUpdate(db, db.selectFrom('scratch').select(['id', 'flag']).where('id', '=', id));
    expect(query.compile().sql.includes('for update')).toBe(dialect === 'postgres');

    const seen = await db.transaction().execute(async (trx) => {
      const row = await forUpdate(trx, trx.selectFrom('scratch').select(['id', 'flag']).where('id', '=', id)).executeTakeFirst();
      await trx.updateTable('scratch').set({ flag: true }).where('id', '=', id).execute();
      return row;
    });
    expect(seen).toMatchObject({ id });
    expect(readBoolean((await readRow(id)).flag)).toBe(true);
  });

  it('matches LIKE wildcards in the term literally and case-insensitively', async () => {
    const exact = await insertRow({ slug: 'xx Ab%c yy' });
    const otherCase = await insertRow({ slug: 'AB%C' });
    const lower = await insertRow({ slug: 'ab%c' });
    await insertRow({ slug: 'Abxc' });
    await insertRow({ slug: 'Ab%' });
    await insertRow({ slug: 'Ab_c' });
    await insertRow({ slug: 'Ab\\%c' });

    const search = async (term: string) => {
      const rows = await db
        .selectFrom('scratch')
        .select('id')
        .where(sql<boolean>`slug ${sql.raw(likeOperator(db))} ${`%${escapeLike(term)}%`} escape '\\'`)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    };

    expect(await search('Ab%c')).toEqual([exact, otherCase, lower]);
    expect(await search('aB%C')).toEqual([exact, otherCase, lower]);
    expect((await search('b_c')).length).toBe(1);
    expect((await search('b\\%')).length).toBe(1);
  });

  it('matches the values of a JSON array bound as one parameter, whatever their count and characters', async () => {
    const quoted = await insertRow({ slug: `it's "x", \\ too` });
    const plain = await insertRow({ slug: 'in-array-plain' });
    await insertRow({ slug: 'in-array-other' });
    const matching = async (values: string[]) => {
      const rows = await db
        .selectFrom('scratch')
        .select('id')
        .where(inJsonArray(db, 'slug', JSON.stringify(values)))
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    };
    expect(await matching([`it's "x", \\ too`, 'in-array-plain', 'absent'])).toEqual([quoted, plain]);
    expect(await matching(['in-array-plain'])).toEqual([plain]);
    expect(await matching([])).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')('turns on foreign keys, WAL and a busy timeout', async () => {
    const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(busy.rows[0]?.timeout).toBeGreaterThan(0);
  });

  it('enforces foreign keys, and translates their violation into CONFLICT', async () => {
    const error = await db
      .insertInto('users')
      .values({
        id: 'U1',
        organization_id: 'no-such-organization',
        name: 'Nobody',
        email: 'nobody@example.com',
        user_type: 'ORG_MEMBER',
        avatar_url: null,
        created_at: TIMESTAMP,
        updated_at: TIMESTAMP,
        deleted_at: null,
      })
      .execute()
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect((error as { code?: string } | null)?.code).toBe(dialect === 'postgres' ? '23503' : 'SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(translateDbError(error)?.code).toBe('CONFLICT');
  });

  /** Runs `check` on a single-connection handle whose session time zone is Asia/Kolkata (UTC+05:30). */
  async function inKolkata(check: (kolkata: Kysely<ScratchDb>) => Promise<void>): Promise<void> {
    const handle = connectPostgres(database.url ?? '', 1);
    try {
      await sql`set time zone 'Asia/Kolkata'`.execute(handle.db);
      await check(handle.db.withTables<{ scratch: ScratchTable }>());
    } finally {
      await handle.close();
    }
  }

  it.runIf(dialect === 'postgres')('reads timestamps back as the identical UTC ISO string in a non-UTC session', () =>
    inKolkata(async (scratch) => {
      const session = await sql<{ TimeZone: string }>`show time zone`.execute(scratch);
      expect(session.rows[0]?.TimeZone).toBe('Asia/Kolkata');

      const written = await insertRow({ happened_at: TIMESTAMP });
      const readThere = await scratch
        .selectFrom('scratch')
        .select('happened_at')
        .where('id', '=', written)
        .executeTakeFirstOrThrow();
      expect(readThere.happened_at).toBe(TIMESTAMP);

      const id = ++nextId;
      await scratch
        .insertInto('scratch')
        .values({ id, slug: `kolkata-${id}`, flag: true, payload: null, happened_at: '2026-01-15T23:59:59.999Z' })
        .execute();
      const row = await scratch.selectFrom('scratch').select('happened_at').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.happened_at).toBe('2026-01-15T23:59:59.999Z');
      expect((await readRow(id)).happened_at).toBe('2026-01-15T23:59:59.999Z');

      const text = await sql<{ local: string }>`select happened_at::text as local from scratch where id = ${id}`.execute(scratch);
      expect(text.rows[0]?.local).toBe('2026-01-16 05:29:59.999+05:30');
    }),
  );

  it.runIf(dialect === 'postgres')('orders timestamps chronologically across the local date line in a non-UTC session', () =>
    inKolkata(async (scratch) => {
      const instants = ['2026-03-01T18:29:59.999Z', '2026-03-01T18:30:00.000Z', '2026-03-01T00:00:00.001Z'];
      const ids: number[] = [];
      for (const at of instants) {
        const id = ++nextId;
        ids.push(id);
        await scratch
          .insertInto('scratch')
          .values({ id, slug: `tz-${id}`, flag: false, payload: null, happened_at: at })
          .execute();
      }
      const rows = await scratch
        .selectFrom('scratch')
        .select('happened_at')
        .where('id', 'in', ids)
        .orderBy('happened_at')
        .execute();
      expect(rows.map((row) => row.happened_at)).toEqual([...instants].sort());
    }),
  );

  it.runIf(dialect === 'postgres')('forUpdate really locks the row against another transaction', async () => {
    const id = await insertRow({ slug: 'held' });
    await db.transaction().execute(async (holder) => {
      await forUpdate(holder, holder.selectFrom('scratch').select('id').where('id', '=', id)).execute();
      const blocked = await db
        .transaction()
        .execute((other) => other.selectFrom('scratch').select('id').where('id', '=', id).forUpdate().noWait().execute())
        .then(
          () => null,
          (thrown: unknown) => thrown,
        );
      expect((blocked as { code?: string } | null)?.code).toBe('55P03');
    });
  });
});
