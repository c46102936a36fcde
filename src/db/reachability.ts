import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { createDb, type DatabaseHandle } from './connect.js';

type DatabaseConfig = Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_MAX'>;

/** The configured database cannot be used at all; the message is one line fit for an operator. */
export class DatabaseUnreachableError extends Error {}

/** A connection that neither opens nor fails within this long counts as unreachable. */
const PROBE_TIMEOUT_MS = 10_000;

/** Socket and resolver codes, worded for a person. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'a part of the path is not a directory',
};

/**
 * Opens the configured database and runs one trivial query, so that a wrong address, a server that
 * is down, bad credentials or an unusable SQLite file are reported before any work starts, in one
 * line naming the database (never its password). Throws `DatabaseUnreachableError`.
 */
export async function openReachableDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  try {
    handle = createDb(config);
  } catch (error) {
    throw new DatabaseUnreachableError(unreachableMessage(config, error));
  }
  try {
    await withTimeout(sql`select 1`.execute(handle.db), PROBE_TIMEOUT_MS);
    return handle;
  } catch (error) {
    // A connection still being attempted must not hold up the answer.
    void handle.close().catch(() => undefined);
    throw new DatabaseUnreachableError(unreachableMessage(config, error));
  }
}

function unreachableMessage(config: DatabaseConfig, error: unknown): string {
  const code = errorCode(error);
  const reason = (code && NETWORK_REASONS[code]) || (error instanceof Error ? error.message : String(error));
  if (config.DATABASE_URL) {
    return `cannot reach PostgreSQL at ${postgresAddress(config.DATABASE_URL)}: ${withoutPassword(reason, config.DATABASE_URL)}`;
  }
  return `cannot open the SQLite database at ${join(resolve(config.DATA_DIR), 'switchboard.db')}: ${reason}`;
}

/** `host:port` of a connection URL, defaults filled in the way `pg` fills them. */
function postgresAddress(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  return `${host}:${parsed.port || '5432'}`;
}

/** Driver messages do not quote passwords, but nothing printed may ever contain one. */
function withoutPassword(text: string, url: string): string {
  const password = decodeURIComponent(new URL(url).password);
  return password ? text.split(password).join('***') : text;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
