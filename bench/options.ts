import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type BenchDialect, DEFAULT_ADMIN_URL, type SizeName } from './datasets.js';
import { postgresReachable } from './seed-db.js';

/** Options both `npm run bench` and `npm run bench:seed` take. */
export const COMMON_OPTIONS = {
  dialect: { type: 'string', default: 'auto' },
  'rows-1m': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
}

export interface Target {
  dialects: BenchDialect[];
  adminUrl: string;
  postgresVersion: string | null;
  rowsOf1m: number;
}

/**
 * Dialects to run: `sqlite`, `postgres` or `both`; by default both when PostgreSQL answers at
 * BENCH_DATABASE_URL (an administrative URL: bench databases are created beside it).
 */
export async function resolveTarget(values: { dialect?: string; 'rows-1m'?: string }): Promise<Target> {
  const adminUrl = process.env.BENCH_DATABASE_URL || DEFAULT_ADMIN_URL;
  const postgresVersion = await postgresReachable(adminUrl);
  const wanted = values.dialect ?? 'auto';
  let dialects: BenchDialect[];
  if (wanted === 'auto') {
    dialects = postgresVersion ? ['sqlite', 'postgres'] : ['sqlite'];
  } else if (wanted === 'both') {
    dialects = ['sqlite', 'postgres'];
  } else if (wanted === 'sqlite' || wanted === 'postgres') {
    dialects = [wanted];
  } else {
    throw new Error(`--dialect must be sqlite, postgres or both, not ${wanted}`);
  }
  if (dialects.includes('postgres') && !postgresVersion) {
    throw new Error(`PostgreSQL is not reachable at ${redact(adminUrl)} (set BENCH_DATABASE_URL)`);
  }
  const rows = values['rows-1m'] ?? process.env.BENCH_ROWS_1M ?? '1000000';
  const rowsOf1m = Number(rows);
  if (!Number.isInteger(rowsOf1m) || rowsOf1m < 10_000) {
    throw new Error(`--rows-1m must be a whole number of at least 10000, not ${rows}`);
  }
  return { dialects, adminUrl, postgresVersion, rowsOf1m };
}

export function parseSizes(value: string | undefined): SizeName[] {
  if (value === undefined || value === 'both') {
    return ['1k', '1m'];
  }
  if (value === '1k' || value === '1m') {
    return [value];
  }
  throw new Error(`--size must be 1k, 1m or both, not ${value}`);
}

export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) {
    parsed.password = '***';
  }
  return parsed.toString();
}
