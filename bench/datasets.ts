import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the benchmark keeps what it makes: seeded databases, logs, profiles (git-ignored). */
export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = resolve(BENCH_DIR, '..');
export const DATA_DIR = join(BENCH_DIR, '.data');

export type BenchDialect = 'sqlite' | 'postgres';
export type SizeName = '1k' | '1m';
export const SIZE_NAMES: readonly SizeName[] = ['1k', '1m'];

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Stored PostgreSQL credentials are encrypted with it; a fixed bench-only key (never a real one). */
export const BENCH_SECRET_KEY = 'b'.repeat(64);

/**
 * Bumped whenever the seed changes what it writes: a dataset of another version is seeded again.
 * The schema itself comes from the project's migrations, applied again at every start.
 */
export const SEED_VERSION = 2;

/** Rows of each list in a dataset, and the help centers (one organization each) of the collection scenario. */
export interface DatasetShape {
  rows: number;
  collectionSizes: number[];
}

export function datasetShape(size: SizeName, rowsOf1m: number): DatasetShape {
  return size === '1k' ? { rows: 1_000, collectionSizes: [1_000] } : { rows: rowsOf1m, collectionSizes: [10_000, 20_000] };
}

/** Keys of the row just before a list's deep page, for the raw server's keyset query. */
export interface DeepPage {
  /** The `page` (0-based) of the last full page in Switchboard's order. */
  page: number;
  limit: number;
  /** Total rows of the list. */
  total: number;
  /** Sort keys of the row before that page, as the raw server's `after` takes them. */
  afterKeys: string[];
}

export interface CollectionSet {
  count: number;
  organizationId: string;
  apiKey: string;
  helpCenterId: string;
}

/** What a seeded dataset holds that the scenarios need: keys, ids and where the deep pages start. */
export interface DatasetMeta {
  seedVersion: number;
  dialect: BenchDialect;
  size: SizeName;
  rows: number;
  seededAt: string;
  seedSeconds: number;
  apiKey: string;
  organizationId: string;
  userId: string;
  teamId: string;
  /** A ticket among the seeded ones, read by "ticket by id". */
  readTicketId: string;
  /** A ticket with no seeded comments, written to by "comment create" (its comments are removed after a run). */
  writeTicketId: string;
  /** The ticket holding `rows` comments. */
  commentsTicketId: string;
  agentId: string;
  deep: {
    tickets: DeepPage;
    comments: DeepPage;
    customFields: DeepPage;
    chatHistory: DeepPage;
  };
  collections: CollectionSet[];
}

export interface DatasetLocation {
  dialect: BenchDialect;
  size: SizeName;
  /** SQLite: the folder given as DATA_DIR; PostgreSQL: a folder for files the server writes. */
  dataDir: string;
  /** PostgreSQL only. */
  databaseName?: string;
  databaseUrl?: string;
  metaFile: string;
}

export function datasetLocation(dialect: BenchDialect, size: SizeName, adminUrl: string): DatasetLocation {
  const metaFile = join(DATA_DIR, `${dialect}-${size}.meta.json`);
  if (dialect === 'sqlite') {
    return { dialect, size, dataDir: join(DATA_DIR, `sqlite-${size}`), metaFile };
  }
  const databaseName = `switchboard_bench_${size}`;
  return {
    dialect,
    size,
    dataDir: join(DATA_DIR, `postgres-${size}-files`),
    databaseName,
    databaseUrl: databaseUrlFor(adminUrl, databaseName),
    metaFile,
  };
}

export function databaseUrlFor(adminUrl: string, databaseName: string, applicationName?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  if (applicationName) {
    url.searchParams.set('application_name', applicationName);
  }
  return url.toString();
}

export function sqliteFile(location: DatasetLocation): string {
  return join(location.dataDir, 'switchboard.db');
}

export function readMeta(location: DatasetLocation): DatasetMeta | null {
  if (!existsSync(location.metaFile)) {
    return null;
  }
  const meta = JSON.parse(readFileSync(location.metaFile, 'utf8')) as DatasetMeta;
  return meta.seedVersion === SEED_VERSION ? meta : null;
}

export function writeMeta(location: DatasetLocation, meta: DatasetMeta): void {
  mkdirSync(dirname(location.metaFile), { recursive: true });
  writeFileSync(location.metaFile, `${JSON.stringify(meta, null, 2)}\n`);
}

/** The environment Switchboard is started with on a dataset; nothing inherited but PATH and HOME. */
export function switchboardEnv(
  location: DatasetLocation,
  options: { port: number; logLevel: string; applicationName?: string },
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TZ: 'UTC',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    LOG_LEVEL: options.logLevel,
    AUTH_FAILURES_PER_MINUTE: '0',
    DATA_DIR: location.dataDir,
  };
  if (location.databaseUrl && location.databaseName) {
    env.DATABASE_URL = databaseUrlFor(location.databaseUrl, location.databaseName, options.applicationName);
    env.SECRET_KEY = BENCH_SECRET_KEY;
  }
  return env;
}
