import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../src/db/dialect.js';

/**
 * Makes the database refuse the inserts (or updates) of `table` whose new row matches `condition`
 * (SQL over `new.` columns that both dialects read alike), as PostgreSQL refuses a NUL: a real error
 * from the database, for the tests of what a worker does when it cannot record something. Answers
 * the undo.
 */
export async function refuseWrites(
  // biome-ignore lint/suspicious/noExplicitAny: any database
  db: Kysely<any>,
  table: string,
  condition: string,
  on: 'insert' | 'update' = 'insert',
): Promise<() => Promise<void>> {
  const name = sql.id(`refuse_${table}`);
  const event = sql.raw(on);
  if (dialectOf(db) === 'postgres') {
    await sql`create function ${name}() returns trigger language plpgsql as $$
      begin
        if ${sql.raw(condition)} then raise exception 'the database refuses this row'; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger ${name} before ${event} on ${sql.table(table)} for each row execute function ${name}()`.execute(db);
    return async () => {
      await sql`drop trigger ${name} on ${sql.table(table)}`.execute(db);
      await sql`drop function ${name}()`.execute(db);
    };
  }
  await sql`create trigger ${name} before ${event} on ${sql.table(table)} when ${sql.raw(condition)}
    begin select raise(abort, 'the database refuses this row'); end`.execute(db);
  return async () => {
    await sql`drop trigger ${name}`.execute(db);
  };
}
