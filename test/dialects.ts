import { inject } from 'vitest';
import type { Dialect } from '../src/db/dialect.js';

/**
 * The dialects every database test runs on: both, unless `TEST_DIALECTS` narrows them or the
 * global setup found no PostgreSQL (it says so once, and fails instead in CI).
 */
export const DIALECTS: Dialect[] = (['sqlite', 'postgres'] as const).filter((dialect) => {
  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',');
  return wanted.includes(dialect) && (dialect === 'sqlite' || inject('postgres') !== null);
});
