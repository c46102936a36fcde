import type { Static } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import { writeJson } from '../../db/dialect.js';
import { AppError } from '../../lib/errors.js';
import { defaultPort, trackingFetch, urlAllowed } from '../../lib/guarded-fetch.js';
import type { Principal } from '../../lib/principal.js';
import { requireManageableAgent } from '../agents/agent.service.js';
import { describeFailure, type FailureDescription, MESSAGES, type ProbeResult, probeServer } from './connect.js';
import { type McpRuntime, requireServer, type ServerAuth, serverAuth } from './mcp-runtime.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { lockMcpServerState, recordMcpConnectionChange } from './mcp-server.events.js';
import {
  consumeFlow,
  deleteExpiredFlows,
  findCredentials,
  findMcpServer,
  findOpenFlow,
  insertPendingFlow,
  type McpServerRow,
  updateMcpServer,
} from './mcp-server.repository.js';
import type { CallbackQuerySchema } from './mcp-server.schemas.js';
import type { McpConnectionState, McpServerStatus, McpServerTable } from './mcp-server.table.js';
import { CredentialStore, hashState, McpOAuthProvider, refreshTokensOnce, sealedField, tokensExpiring } from './oauth.js';

const FLOW_LIFETIME_MS = 10 * 60 * 1000;

/** Endpoint 15's body, and the HTTP status it goes out with. */
export interface ConnectResult {
  status: 'connected' | 'auth_required' | 'error';
  message: string;
  authorization_url: string | null;
}

export interface ConnectOutcome {
  httpStatus: 200 | 400 | 502 | 504;
  result: ConnectResult;
}

/** What one attempt came to, before it is written to the server row. */
type Attempt =
  | { kind: 'connected'; probe: Extract<ProbeResult, { kind: 'connected' }>; oauth: boolean }
  | { kind: 'auth_required'; url: URL; issuer: string; provider: McpOAuthProvider }
  | { kind: 'error'; failure: FailureDescription; state?: McpConnectionState };

const STATUS_OF: Record<McpConnectionState, McpServerStatus> = {
  connected: 'connected',
  error: 'error',
  disconnected: 'disconnected',
  pending_auth: 'disconnected',
  auth_required: 'disconnected',
};

const failure = (message: string, httpStatus: FailureDescription['httpStatus'] = 502, discoveryProblem = false): Attempt => ({
  kind: 'error',
  failure: { message, httpStatus, discoveryProblem },
});

/** Names and versions come from the server: printable, short. */
function clean(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100);
}

export async function connectMcpServer(runtime: McpRuntime, principal: Principal, agentId: string, serverId: string) {
  await requireManageableAgent(runtime.db, principal, agentId);
  const server = await requireServer(runtime.db, agentId, serverId);
  if (!runtime.connectLimiter.take(`${principal.userId}|${agentId}`)) {
    throw new AppError({ code: 'RATE_LIMITED', message: 'Too many connection attempts; try again in a minute' });
  }
  await deleteExpiredFlows(runtime.db, runtime.clock.now().toISOString());
  const attempt = (await urlAllowed(server.url, runtime.policy))
    ? await attemptConnection(runtime, server)
    : failure(MESSAGES.urlNotAllowed, 400);
  return settle(runtime, server, principal.userId, attempt);
}

/**
 * Probes the server with what is stored (§3 steps 3–5): a static header, or the OAuth provider
 * with a proactive refresh before and a single-flight refresh after a rejected access token.
 * `afterAuthorization`: tokens were just obtained, so a refusal means they do not fit the server.
 */
async function attemptConnection(runtime: McpRuntime, server: McpServerRow, afterAuthorization = false): Promise<Attempt> {
  const settings = serverAuth(runtime, server);
  const tracker = trackingFetch(runtime.outbound.fetch);
  if (settings.header) {
    const probe = await probeServer(server.url, {
      fetch: tracker.fetch,
      headers: { [settings.header.name]: settings.header.value },
    });
    return probe.kind === 'connected'
      ? { kind: 'connected', probe, oauth: false }
      : { kind: 'error', failure: await describeFailure(probe.kind === 'failed' ? probe.error : undefined, tracker.blocked()) };
  }
  const refreshOptions = { fetchFn: tracker.fetch, staticClient: settings.staticClient };
  const credentials = await findCredentials(runtime.db, server.id);
  if (credentials?.tokens_encrypted && tokensExpiring(credentials.expires_at, runtime.clock)) {
    // A failure here is not final: the old access token may still be accepted.
    await refreshTokensOnce(runtime.oauth, server, { kind: 'expiring' }, refreshOptions);
  }
  let provider = newProvider(runtime, server, settings);
  let probe = await probeServer(server.url, { fetch: tracker.fetch, authProvider: provider });
  let refreshed = false;
  const rejected = tracker.rejectedBearer();
  if (probe.kind === 'unauthorized' && rejected && provider.lastRefreshToken) {
    const outcome = await refreshTokensOnce(runtime.oauth, server, { kind: 'rejected', accessToken: rejected }, refreshOptions);
    if (outcome.kind === 'failed') {
      // The credentials are kept: a network fault or a 5xx at the AS is not a lost grant.
      const described = await describeFailure(outcome.error, tracker.blocked());
      return {
        kind: 'error',
        failure: described.httpStatus === 400 ? described : { ...described, message: MESSAGES.refreshFailed },
      };
    }
    if (outcome.kind === 'refreshed' || outcome.kind === 'fresh') {
      refreshed = true;
      provider = newProvider(runtime, server, settings);
      probe = await probeServer(server.url, { fetch: tracker.fetch, authProvider: provider });
    }
    // invalid_grant or no refresh token: the authorization URL of the first probe stands.
  }
  if (probe.kind === 'connected') {
    return { kind: 'connected', probe, oauth: provider.lastAccessToken !== undefined };
  }
  if (probe.kind === 'unauthorized') {
    if (afterAuthorization || refreshed) {
      return failure(MESSAGES.tokenRejected, 502, true);
    }
    return authorizationRequired(runtime, provider, settings);
  }
  return explainFailure(provider, probe.error, tracker.blocked());
}

function newProvider(runtime: McpRuntime, server: McpServerRow, settings: ServerAuth): McpOAuthProvider {
  return new McpOAuthProvider(runtime.oauth, server, {
    mode: 'probe',
    staticClient: settings.staticClient,
    scope: settings.scope,
  });
}

/** The discovery state tells "no OAuth at all" apart from other failures, whatever the SDK threw. */
async function explainFailure(provider: McpOAuthProvider, error: unknown, blocked: boolean): Promise<Attempt> {
  const discovery = provider.discovery;
  if (!blocked && discovery && !discovery.authorizationServerMetadata && !discovery.resourceMetadata) {
    return failure(MESSAGES.noMetadata, 502, true);
  }
  return { kind: 'error', failure: await describeFailure(error, blocked) };
}

/**
 * The SDK prepared an authorization URL. Before it is handed out (SDK gaps 3 and 7): the AS has
 * metadata, its issuer is the one the resource named, it offers S256 (unless the server is
 * configured to assume it), and the URL is on its authorization endpoint, over https unless
 * allowlisted.
 */
function authorizationRequired(runtime: McpRuntime, provider: McpOAuthProvider, settings: ServerAuth): Attempt {
  const url = provider.authorizationUrl;
  const discovery = provider.discovery;
  const metadata = discovery?.authorizationServerMetadata;
  if (!url || !discovery || !metadata || !provider.savedCodeVerifier) {
    return failure(MESSAGES.noMetadata, 502, true);
  }
  if (!sameIssuer(metadata.issuer, discovery.authorizationServerUrl)) {
    return failure(MESSAGES.issuerMismatch, 502, true);
  }
  if (!settings.assumeS256 && !metadata.code_challenge_methods_supported?.includes('S256')) {
    return failure(MESSAGES.noS256, 502, true);
  }
  const endpoint = new URL(metadata.authorization_endpoint);
  if (url.origin !== endpoint.origin || url.pathname !== endpoint.pathname) {
    return failure(MESSAGES.endpointMismatch, 502, true);
  }
  if (url.protocol !== 'https:' && !runtime.policy.isAllowlisted(url.hostname.replace(/^\[|\]$/g, ''), defaultPort(url))) {
    return failure(MESSAGES.blocked, 400, true);
  }
  return { kind: 'auth_required', url, issuer: metadata.issuer, provider };
}

/** Issuers compared as URLs, one trailing slash aside. */
function sameIssuer(a: string, b: string): boolean {
  const normal = (value: string) => {
    try {
      return new URL(value).href.replace(/\/$/, '');
    } catch {
      return value.replace(/\/$/, '');
    }
  };
  return normal(a) === normal(b);
}

/** Writes the attempt to the server row (and the pending flow) and words the answer. */
async function settle(runtime: McpRuntime, server: McpServerRow, userId: string, attempt: Attempt): Promise<ConnectOutcome> {
  const at = runtime.clock.now().toISOString();
  const { changes, outcome } =
    attempt.kind === 'connected'
      ? await settleConnected(runtime, server, userId, attempt)
      : attempt.kind === 'auth_required'
        ? await settlePending(runtime, server, userId, attempt)
        : await settleFailed(runtime, server, attempt);
  const state = changes.connection_state as McpConnectionState;
  await runtime.db.transaction().execute(async (trx) => {
    const before = await lockMcpServerState(trx, server.id);
    await updateMcpServer(trx, server.id, { ...changes, status: STATUS_OF[state], updated_at: at, last_health_check: at });
    await recordMcpConnectionChange(trx, runtime.clock, { agentId: server.agent_id, serverId: server.id, before, userId });
  });
  runtime.log.info(
    { agentId: server.agent_id, serverId: server.id, outcome: outcome.result.status, reason: outcome.result.message },
    'mcp connect',
  );
  return outcome;
}

type Settled = { changes: Updateable<McpServerTable>; outcome: ConnectOutcome };

async function settleConnected(
  runtime: McpRuntime,
  server: McpServerRow,
  userId: string,
  attempt: Extract<Attempt, { kind: 'connected' }>,
): Promise<Settled> {
  const { probe } = attempt;
  const credentials = attempt.oauth ? await findCredentials(runtime.db, server.id) : undefined;
  const message = clean(`Connected to ${probe.serverName} ${probe.serverVersion}`.trim());
  return {
    changes: {
      connection_state: 'connected',
      status_message: message,
      transport: probe.transport,
      discovered_tools: writeJson(probe.tools),
      last_connected_at: runtime.clock.now().toISOString(),
      connected_by_user_id: userId,
      token_expires_at: credentials?.expires_at ?? null,
      ...(server.auth_type === 'static_header' ? {} : { auth_type: attempt.oauth ? 'oauth' : 'none' }),
    },
    outcome: { httpStatus: 200, result: { status: 'connected', message, authorization_url: null } },
  };
}

/** The URL goes out; its state (hashed), user and sealed PKCE verifier stay here for 10 minutes. */
async function settlePending(
  runtime: McpRuntime,
  server: McpServerRow,
  userId: string,
  attempt: Extract<Attempt, { kind: 'auth_required' }>,
): Promise<Settled> {
  const now = runtime.clock.now();
  const { provider } = attempt;
  await insertPendingFlow(runtime.db, {
    state_hash: hashState(provider.stateValue),
    organization_id: server.organization_id,
    agent_id: server.agent_id,
    server_id: server.id,
    user_id: userId,
    code_verifier_encrypted: runtime.box.seal(provider.savedCodeVerifier ?? '', sealedField(server, 'code_verifier')),
    resource_metadata_url: provider.discovery?.resourceMetadataUrl ?? null,
    scope: attempt.url.searchParams.get('scope'),
    issuer: attempt.issuer,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + FLOW_LIFETIME_MS).toISOString(),
    consumed_at: null,
  });
  const message = clean(`Authorization required by ${attempt.issuer}`);
  return {
    changes: { connection_state: 'pending_auth', status_message: message, auth_type: 'oauth' },
    outcome: { httpStatus: 200, result: { status: 'auth_required', message, authorization_url: attempt.url.href } },
  };
}

async function settleFailed(
  runtime: McpRuntime,
  server: McpServerRow,
  attempt: Extract<Attempt, { kind: 'error' }>,
): Promise<Settled> {
  if (attempt.failure.discoveryProblem) {
    // What discovery found led nowhere: look again next time.
    await new CredentialStore(runtime.db, runtime.oauth, server).saveDiscovery(null);
  }
  const { message, httpStatus } = attempt.failure;
  return {
    changes: { connection_state: attempt.state ?? 'error', status_message: message },
    outcome: { httpStatus, result: { status: 'error', message, authorization_url: null } },
  };
}

export type CallbackOutcome = { kind: 'invalid' } | { kind: 'done'; agentId: string; serverId: string; result: ConnectResult };

/**
 * `GET /api/v1/mcp/oauth/callback` (§4). The state is the credential: it must name an open flow,
 * belong to the caller when the request carries a key, and is consumed atomically before the
 * code or an error is even looked at. Then the code is redeemed at the AS pinned in the stored
 * discovery state and the server probed again.
 */
export async function completeAuthorization(
  runtime: McpRuntime,
  query: Static<typeof CallbackQuerySchema>,
  caller: Principal | null,
): Promise<CallbackOutcome> {
  if (!query.state) {
    return { kind: 'invalid' };
  }
  const stateHash = hashState(query.state);
  const now = runtime.clock.now().toISOString();
  const flow = await findOpenFlow(runtime.db, stateHash, now);
  if (!flow || (caller && (caller.userId !== flow.user_id || caller.organizationId !== flow.organization_id))) {
    return { kind: 'invalid' };
  }
  if (!(await consumeFlow(runtime.db, stateHash, now))) {
    return { kind: 'invalid' };
  }
  const server = await findMcpServer(runtime.db, flow.agent_id, flow.server_id);
  if (!server) {
    return { kind: 'invalid' };
  }
  const attempt = await redeem(runtime, server, flow, query);
  const outcome = await settle(runtime, server, flow.user_id, attempt);
  return { kind: 'done', agentId: server.agent_id, serverId: server.id, result: outcome.result };
}

async function redeem(
  runtime: McpRuntime,
  server: McpServerRow,
  flow: { code_verifier_encrypted: string; resource_metadata_url: string | null; issuer: string | null },
  query: Static<typeof CallbackQuerySchema>,
): Promise<Attempt> {
  if (query.error) {
    return failure(MESSAGES.denied);
  }
  const verifier = runtime.box.open(flow.code_verifier_encrypted, sealedField(server, 'code_verifier'));
  if (!query.code || !verifier) {
    return failure(MESSAGES.codeRejected);
  }
  const settings = serverAuth(runtime, server);
  const store = new CredentialStore(runtime.db, runtime.oauth, server);
  const metadata = (await store.read()).discovery?.authorizationServerMetadata as
    | { authorization_response_iss_parameter_supported?: boolean }
    | undefined;
  // RFC 9207: the response names its issuer when the AS says it does; a named one must match.
  const issRequired = metadata?.authorization_response_iss_parameter_supported === true;
  if ((issRequired || query.iss !== undefined) && (!flow.issuer || !query.iss || !sameIssuer(query.iss, flow.issuer))) {
    return failure(MESSAGES.issuerMismatch);
  }
  const provider = new McpOAuthProvider(runtime.oauth, server, {
    mode: 'callback',
    codeVerifier: verifier,
    staticClient: settings.staticClient,
    scope: settings.scope,
  });
  const tracker = trackingFetch(runtime.outbound.fetch);
  const sdk = await loadMcpSdk();
  try {
    const result = await sdk.clientAuth.auth(provider, {
      serverUrl: server.url,
      authorizationCode: query.code,
      resourceMetadataUrl: flow.resource_metadata_url ? new URL(flow.resource_metadata_url) : undefined,
      fetchFn: tracker.fetch,
    });
    if (result !== 'AUTHORIZED') {
      return failure(MESSAGES.codeRejected);
    }
  } catch (error) {
    if (error instanceof sdk.authErrors.InvalidGrantError) {
      return { kind: 'error', failure: { message: MESSAGES.codeRejected, httpStatus: 502 }, state: 'auth_required' };
    }
    return { kind: 'error', failure: await describeFailure(error, tracker.blocked()) };
  }
  return attemptConnection(runtime, server, true);
}
