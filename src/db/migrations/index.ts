import type { Migration } from 'kysely';
import * as createTenancy from './2026-11-22T1000_create_tenancy.js';
import * as createTeams from './2026-11-22T1100_create_teams.js';

/**
 * Every migration, keyed by its file name. Listed by hand rather than read from the folder so
 * the compiled build and the TypeScript sources run the same set. Never edit a landed entry.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1000_create_tenancy': createTenancy,
  '2026-11-22T1100_create_teams': createTeams,
};
