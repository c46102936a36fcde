import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { createGuardedFetch, type GuardedFetch, type OutboundPolicy, parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import type { IdFactory } from '../../lib/ids.js';
import { createSecretBox, type SecretBox } from '../../lib/secret-box.js';
import { findMcpServer, type McpServerRow } from './mcp-server.repository.js';
import { CALLBACK_PATH, KeyedMutex, type OAuthContext, type StaticClient, sealedField } from './oauth.js';

/** Connect attempts a user may make per agent per minute. */
const CONNECTS_PER_MINUTE = 20;

/** Everything the MCP server services share in one app: built once when the routes register. */
export interface McpRuntime {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  log: FastifyBaseLogger;
  config: Config;
  box: SecretBox;
  policy: OutboundPolicy;
  outbound: GuardedFetch;
  oauth: OAuthContext;
  connectLimiter: RateLimiter;
  /** Where the callback sends the browser afterwards (`MCP_OAUTH_RETURN_URL`), if anywhere. */
  returnUrl: string | undefined;
}

const runtimeOfApp = new WeakMap<AppDeps, McpRuntime>();

/**
 * The app's one MCP runtime: the routes and the agent runs that call MCP tools share its pool and
 * its per-server refresh locks, which serialise token refreshes inside the process.
 */
export function mcpRuntimeOf(deps: AppDeps): McpRuntime {
  let runtime = runtimeOfApp.get(deps);
  if (!runtime) {
    runtime = createMcpRuntime(deps);
    runtimeOfApp.set(deps, runtime);
  }
  return runtime;
}

export function createMcpRuntime(deps: AppDeps): McpRuntime {
  const box = createSecretBox(deps.secretKey);
  const policy = parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS);
  return {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    log: deps.log,
    config: deps.config,
    box,
    policy,
    outbound: createGuardedFetch(policy),
    oauth: {
      db: deps.db,
      box,
      clock: deps.clock,
      callbackUrl: `${publicBaseUrl(deps.config, 'agentStudio')}${CALLBACK_PATH}`,
      locks: new KeyedMutex(),
    },
    connectLimiter: new RateLimiter(CONNECTS_PER_MINUTE, 60_000),
    returnUrl: deps.config.MCP_OAUTH_RETURN_URL,
  };
}

/** A sliding window of attempts per key, in memory. */
export class RateLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(key: string): boolean {
    const now = Date.now();
    const recent = (this.attempts.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (recent.length >= this.limit) {
      this.attempts.set(key, recent);
      return false;
    }
    recent.push(now);
    this.attempts.set(key, recent);
    if (this.attempts.size > 10_000) {
      const oldest = this.attempts.keys().next().value;
      if (oldest !== undefined) {
        this.attempts.delete(oldest);
      }
    }
    return true;
  }
}

export const SERVER_NOT_FOUND = 'MCP server not found';

/** The agent's MCP server as stored now, or undefined once it is deleted: a run reads it afresh before each call. */
export async function findServerOfAgent(db: Kysely<DB>, agentId: string, serverId: string): Promise<McpServerRow | undefined> {
  return findMcpServer(db, agentId, serverId);
}

export async function requireServer(db: Kysely<DB>, agentId: string, serverId: string): Promise<McpServerRow> {
  const server = await findMcpServer(db, agentId, serverId);
  if (!server) {
    throw AppError.notFound(SERVER_NOT_FOUND);
  }
  return server;
}

/** The non-secret part of `auth_config`, as stored. */
export interface StoredAuthConfig {
  type: 'oauth2' | 'header';
  client_id?: string;
  scope?: string;
  assume_pkce_s256?: boolean;
  header_name?: string;
}

export function storedAuthConfig(row: Pick<McpServerRow, 'auth_config'>): StoredAuthConfig | null {
  return readJson<StoredAuthConfig>(row.auth_config);
}

/** How a connect authenticates: a static header, a pre-registered client, or neither. */
export interface ServerAuth {
  header?: { name: string; value: string };
  staticClient?: StaticClient;
  scope?: string;
  assumeS256: boolean;
}

export function serverAuth(runtime: Pick<McpRuntime, 'box'>, row: McpServerRow): ServerAuth {
  const config = storedAuthConfig(row);
  if (config?.type === 'header' && config.header_name && row.static_header_encrypted) {
    const value = runtime.box.open(row.static_header_encrypted, sealedField(row, 'static_header'));
    if (value !== null) {
      return { header: { name: config.header_name, value }, assumeS256: false };
    }
  }
  const secret = row.client_secret_encrypted
    ? runtime.box.open(row.client_secret_encrypted, sealedField(row, 'client_secret'))
    : null;
  return {
    staticClient:
      config?.type === 'oauth2' && config.client_id
        ? {
            client_id: config.client_id,
            ...(secret ? { client_secret: secret } : {}),
            ...(config.scope ? { scope: config.scope } : {}),
          }
        : undefined,
    scope: config?.scope,
    assumeS256: config?.assume_pkce_s256 === true,
  };
}
