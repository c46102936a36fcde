import type { Kysely } from 'kysely';
import type { DB } from './database.js';

/**
 * Adds one to the key's count in one statement and answers the count with its window's end: the
 * row's lock (PostgreSQL) or the single writer (SQLite) orders concurrent attempts, so each gets a
 * count of its own. A window that has ended starts again at 1, ending at `windowEndsAt`.
 */
export async function incrementAttemptCounter(db: Kysely<DB>, key: string, at: { now: string; windowEndsAt: string }) {
  return db
    .insertInto('attempt_counters')
    .values({ key, count: 1, window_ends_at: at.windowEndsAt })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => {
        const ended = eb('attempt_counters.window_ends_at', '<=', at.now);
        return {
          count: eb
            .case()
            .when(ended)
            .then(1)
            .else(eb('attempt_counters.count', '+', 1))
            .end(),
          window_ends_at: eb
            .case()
            .when(ended)
            .then(eb.ref('excluded.window_ends_at'))
            .else(eb.ref('attempt_counters.window_ends_at'))
            .end(),
        };
      }),
    )
    .returning(['count', 'window_ends_at'])
    .executeTakeFirstOrThrow();
}

/** Takes one back from the key's count in its current window (never below zero). */
export async function decrementAttemptCounter(db: Kysely<DB>, key: string, now: string): Promise<void> {
  await db
    .updateTable('attempt_counters')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .where('window_ends_at', '>', now)
    .execute();
}

/** Forgets the counters whose window ended before `now`. */
export async function deleteEndedAttemptCounters(db: Kysely<DB>, now: string): Promise<void> {
  await db.deleteFrom('attempt_counters').where('window_ends_at', '<=', now).execute();
}
