import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from './migrations/index.js';

/** Applies every pending migration; safe to run from several processes at once (Kysely locks). */
// biome-ignore lint/suspicious/noExplicitAny: works on any database handle
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((entry) => entry.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (result.results ?? []).filter((entry) => entry.status === 'Success').map((entry) => entry.migrationName);
}
