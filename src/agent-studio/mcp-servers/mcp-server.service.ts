import type { Static } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import { readJson, writeJson } from '../../db/dialect.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError, type ValidationIssue } from '../../lib/errors.js';
import { staticUrlProblem } from '../../lib/guarded-fetch.js';
import type { Principal } from '../../lib/principal.js';
import { describeIssue } from '../../lib/validation-issues.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { requireAgent, requireManageableAgent } from '../agents/agent.service.js';
import type { DiscoveredTool } from './connect.js';
import {
  type McpRuntime,
  requireServer,
  SERVER_NOT_FOUND,
  type StoredAuthConfig,
  serverAuth,
  storedAuthConfig,
} from './mcp-runtime.js';
import { lockMcpServerState, recordMcpConnectionChange } from './mcp-server.events.js';
import { toMcpServer } from './mcp-server.presenter.js';
import {
  deleteCredentials,
  deleteFlowsOfServer,
  disableToolsOfMcpServer,
  findMcpServer,
  insertMcpServer,
  listMcpServers,
  type McpServerRow,
  softDeleteMcpServer,
  updateMcpServer,
} from './mcp-server.repository.js';
import type {
  AuthConfigInputSchema,
  CreateMcpServerSchema,
  ListMcpServersQuerySchema,
  UpdateMcpServerSchema,
} from './mcp-server.schemas.js';
import type { McpServerTable } from './mcp-server.table.js';
import { revokeStoredTokens, sealedField } from './oauth.js';

type AuthConfigInput = Static<typeof AuthConfigInputSchema>;

/** Headers the transport sets itself; a static header may not replace them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

const valueError = (path: string[], message: string): ValidationIssue => ({
  location: 'body',
  path,
  rule: 'value_error',
  message: `Value error, ${message}`,
});

function invalid(issues: ValidationIssue[]): AppError {
  return new AppError({ code: 'VALIDATION', message: issues.map(describeIssue).join('; '), issues });
}

function urlIssues(runtime: McpRuntime, field: 'url' | 'health_check_url', value: string | null | undefined): ValidationIssue[] {
  if (value === null || value === undefined) {
    return [];
  }
  // The health check URL is an outbound destination like the endpoint: one policy for both.
  const problem = staticUrlProblem(value, runtime.policy, field);
  return problem ? [valueError([field], problem)] : [];
}

/** JSON text compared by value: PostgreSQL's jsonb hands it back with its own key order and spacing. */
function sameJson(a: string | null, b: string | null): boolean {
  const canonical = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([x], [y]) => x.localeCompare(y))
            .map(([key, entry]) => [key, canonical(entry)]),
        )
      : value;
  return JSON.stringify(canonical(readJson(a))) === JSON.stringify(canonical(readJson(b)));
}

/** The auth columns an `auth_config` input turns into; a secret left out keeps the stored one. */
interface AuthColumns {
  auth_type: string;
  auth_config: string | null;
  client_secret_encrypted: string | null;
  static_header_encrypted: string | null;
}

const NO_AUTH: AuthColumns = {
  auth_type: 'none',
  auth_config: null,
  client_secret_encrypted: null,
  static_header_encrypted: null,
};
const authField = (field: string) => ['auth_config', field];

function authColumns(
  runtime: McpRuntime,
  server: Pick<McpServerRow, 'id' | 'agent_id'>,
  input: AuthConfigInput | null,
  existing?: McpServerRow,
): { columns: AuthColumns; issues: ValidationIssue[] } {
  if (!input) {
    return { columns: NO_AUTH, issues: [] };
  }
  const previous = existing ? storedAuthConfig(existing) : null;
  const type = input.type ?? (input.header_name || input.header_value ? 'header' : 'oauth2');
  return type === 'header'
    ? headerColumns(runtime, server, input, previous, existing)
    : oauthColumns(runtime, server, input, previous, existing);
}

/**
 * `plaintext` sealed, or the stored ciphertext when it already seals that very text: sealing twice
 * gives different bytes, and a PUT that sends the secret it already set must not count as new
 * credentials (which would forget the connection).
 */
function sealUnlessStored(
  runtime: McpRuntime,
  server: Pick<McpServerRow, 'id' | 'agent_id'>,
  field: 'static_header' | 'client_secret',
  plaintext: string,
  stored: string | null | undefined,
): string {
  const aad = sealedField(server, field);
  return stored && runtime.box.open(stored, aad) === plaintext ? stored : runtime.box.seal(plaintext, aad);
}

/** A static header: name shown, value sealed. */
function headerColumns(
  runtime: McpRuntime,
  server: Pick<McpServerRow, 'id' | 'agent_id'>,
  input: AuthConfigInput,
  previous: StoredAuthConfig | null,
  existing?: McpServerRow,
): { columns: AuthColumns; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const name = input.header_name;
  const keepValue = !input.header_value && previous?.type === 'header' && previous.header_name === name;
  if (!name) {
    issues.push(valueError(authField('header_name'), 'header_name is required for a header auth_config'));
  } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
    issues.push(valueError(authField('header_name'), `${name} cannot be configured`));
  }
  if (!input.header_value && !keepValue) {
    issues.push(valueError(authField('header_value'), 'header_value is required for a header auth_config'));
  }
  for (const field of ['client_id', 'client_secret', 'scope'] as const) {
    if (input[field] !== undefined) {
      issues.push(valueError(authField(field), `${field} does not apply to a header auth_config`));
    }
  }
  const sealed = input.header_value
    ? sealUnlessStored(runtime, server, 'static_header', input.header_value, existing?.static_header_encrypted)
    : (existing?.static_header_encrypted ?? null);
  const stored: StoredAuthConfig = { type: 'header', header_name: name };
  return {
    columns: { ...NO_AUTH, auth_type: 'static_header', auth_config: writeJson(stored), static_header_encrypted: sealed },
    issues,
  };
}

/** OAuth settings: an optional pre-registered client (secret sealed), scope, the S256 switch. */
function oauthColumns(
  runtime: McpRuntime,
  server: Pick<McpServerRow, 'id' | 'agent_id'>,
  input: AuthConfigInput,
  previous: StoredAuthConfig | null,
  existing?: McpServerRow,
): { columns: AuthColumns; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  for (const field of ['header_name', 'header_value'] as const) {
    if (input[field] !== undefined) {
      issues.push(valueError(authField(field), `${field} does not apply to an oauth2 auth_config`));
    }
  }
  if (input.client_secret && !input.client_id) {
    issues.push(valueError(authField('client_id'), 'client_id is required with client_secret'));
  }
  const keepSecret = !input.client_secret && previous?.type === 'oauth2' && previous.client_id === input.client_id;
  const stored: StoredAuthConfig = {
    type: 'oauth2',
    ...(input.client_id ? { client_id: input.client_id } : {}),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.assume_pkce_s256 !== undefined ? { assume_pkce_s256: input.assume_pkce_s256 } : {}),
  };
  const secret = input.client_secret
    ? sealUnlessStored(runtime, server, 'client_secret', input.client_secret, existing?.client_secret_encrypted)
    : keepSecret
      ? (existing?.client_secret_encrypted ?? null)
      : null;
  return {
    columns: {
      ...NO_AUTH,
      auth_type: input.client_id ? 'oauth' : 'none',
      auth_config: writeJson(stored),
      client_secret_encrypted: secret,
    },
    issues,
  };
}

export async function createMcpServer(
  runtime: McpRuntime,
  principal: Principal,
  agentId: string,
  input: Static<typeof CreateMcpServerSchema>,
) {
  await requireManageableAgent(runtime.db, principal, agentId);
  const id = runtime.ids.uuid();
  const issues = [...urlIssues(runtime, 'url', input.url), ...urlIssues(runtime, 'health_check_url', input.health_check_url)];
  if (input.agent_id !== undefined && input.agent_id !== agentId) {
    issues.push(valueError(['agent_id'], 'agent_id must match the agent in the path'));
  }
  const auth = authColumns(runtime, { id, agent_id: agentId }, input.auth_config ?? null);
  issues.push(...auth.issues);
  if (issues.length > 0) {
    throw invalid(issues);
  }
  const at = runtime.clock.now().toISOString();
  await insertMcpServer(runtime.db, {
    id,
    organization_id: principal.organizationId,
    agent_id: agentId,
    created_by_id: principal.userId,
    name: input.name,
    url: input.url,
    ...auth.columns,
    tool_discovery_endpoint: input.tool_discovery_endpoint === undefined ? '/tools' : input.tool_discovery_endpoint,
    health_check_url: input.health_check_url ?? null,
    transport: null,
    status: 'disconnected',
    connection_state: 'disconnected',
    status_message: null,
    is_enabled: input.is_enabled ?? true,
    discovered_tools: null,
    last_connected_at: null,
    connected_by_user_id: null,
    last_health_check: null,
    token_expires_at: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  return toMcpServer(await requireServer(runtime.db, agentId, id));
}

export async function listServersOfAgent(
  runtime: McpRuntime,
  principal: Principal,
  agentId: string,
  query: Static<typeof ListMcpServersQuerySchema>,
) {
  await requireAgent(runtime.db, principal, agentId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['instant', 'text']);
  const rows = await listMcpServers(runtime.db, agentId, { status: query.status }, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: page.items.map(toMcpServer), nextCursor: page.nextCursor };
}

export async function getMcpServer(runtime: McpRuntime, principal: Principal, agentId: string, serverId: string) {
  await requireAgent(runtime.db, principal, agentId);
  return toMcpServer(await requireServer(runtime.db, agentId, serverId));
}

export async function listDiscoveredTools(runtime: McpRuntime, principal: Principal, agentId: string, serverId: string) {
  await requireAgent(runtime.db, principal, agentId);
  const server = await requireServer(runtime.db, agentId, serverId);
  return readJson<DiscoveredTool[]>(server.discovered_tools) ?? [];
}

/**
 * Fields sent replace the stored ones. A new URL or different credentials forget the connection:
 * tokens, registration and pending flows are deleted and the server is disconnected.
 */
export async function updateMcpServerDetails(
  runtime: McpRuntime,
  principal: Principal,
  agentId: string,
  serverId: string,
  input: Static<typeof UpdateMcpServerSchema>,
) {
  await requireManageableAgent(runtime.db, principal, agentId);
  const server = await requireServer(runtime.db, agentId, serverId);
  const issues = [...urlIssues(runtime, 'url', input.url), ...urlIssues(runtime, 'health_check_url', input.health_check_url)];
  const auth = input.auth_config !== undefined ? authColumns(runtime, server, input.auth_config, server) : undefined;
  issues.push(...(auth?.issues ?? []));
  if (issues.length > 0) {
    throw invalid(issues);
  }
  const changes: Updateable<McpServerTable> = { updated_at: runtime.clock.now().toISOString() };
  for (const key of ['name', 'url', 'tool_discovery_endpoint', 'health_check_url', 'is_enabled'] as const) {
    if (input[key] !== undefined) {
      Object.assign(changes, { [key]: input[key] });
    }
  }
  const urlChanged = input.url !== undefined && input.url !== server.url;
  const authChanged =
    auth !== undefined &&
    (!sameJson(auth.columns.auth_config, server.auth_config) ||
      auth.columns.client_secret_encrypted !== server.client_secret_encrypted ||
      auth.columns.static_header_encrypted !== server.static_header_encrypted);
  if (auth) {
    Object.assign(changes, auth.columns);
  }
  if (urlChanged || authChanged) {
    Object.assign(changes, {
      status: 'disconnected',
      connection_state: 'disconnected',
      status_message: null,
      transport: null,
      discovered_tools: null,
      token_expires_at: null,
    });
  }
  await runtime.db.transaction().execute(async (trx) => {
    const before = await lockMcpServerState(trx, server.id);
    if (urlChanged || authChanged) {
      await deleteFlowsOfServer(trx, server.id);
      await deleteCredentials(trx, server.id);
    }
    await updateMcpServer(trx, server.id, changes);
    await recordMcpConnectionChange(trx, runtime.clock, { agentId, serverId: server.id, before, userId: principal.userId });
  });
  return toMcpServer(await requireServer(runtime.db, agentId, serverId));
}

/**
 * Endpoint 16. Tokens are revoked at the authorization server first (best effort, short timeout),
 * then one transaction deletes credentials and pending flows, soft-deletes the server and disables
 * the agent's tools that used it. No client is pooled, so there is no live session to end.
 */
export async function removeMcpServer(runtime: McpRuntime, principal: Principal, agentId: string, serverId: string) {
  await requireManageableAgent(runtime.db, principal, agentId);
  const server = await requireServer(runtime.db, agentId, serverId);
  const auth = serverAuth(runtime, server);
  await revokeStoredTokens(runtime.oauth, server, { fetchFn: runtime.outbound.fetch, staticClient: auth.staticClient }).catch(
    () => undefined,
  );
  const at = runtime.clock.now().toISOString();
  const removed = await runtime.db.transaction().execute(async (trx) => {
    const before = await lockMcpServerState(trx, server.id);
    const current = await findMcpServer(trx, agentId, server.id);
    await deleteFlowsOfServer(trx, server.id);
    await deleteCredentials(trx, server.id);
    const deleted = await softDeleteMcpServer(trx, server.id, at);
    await disableToolsOfMcpServer(trx, server.id, at);
    if (deleted && current) {
      await recordMcpConnectionChange(trx, runtime.clock, {
        agentId,
        serverId: server.id,
        before,
        userId: principal.userId,
        removed: current,
      });
    }
    return deleted;
  });
  if (!removed) {
    throw AppError.notFound(SERVER_NOT_FOUND);
  }
  runtime.log.info({ agentId, serverId }, 'mcp server removed');
  return { status: 'success' as const, message: 'MCP server removed' };
}
