import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../src/db/database.js';

/**
 * A handle on `db` that records every statement it sends, as sent: with the values of that run,
 * also for a query compiled once and run with new values (`src/db/compiled.ts`), whose query node
 * still holds the placeholders it was compiled with. For the tests that explain a list's plans.
 */
export function recordingStatements(db: Kysely<DB>): { db: Kysely<DB>; statements: CompiledQuery[] } {
  const statements: CompiledQuery[] = [];
  const recording = db.withoutPlugins();
  const executor = recording.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = ((query: CompiledQuery) => {
    statements.push(query);
    return execute(query);
  }) as typeof executor.executeQuery;
  return { db: recording, statements };
}
