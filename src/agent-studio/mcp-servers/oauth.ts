import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { withAdvisoryLock } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { type CredentialRow, ensureCredentials, findCredentials, updateCredentials } from './mcp-server.repository.js';

/** Tokens expiring sooner than this are refreshed before a connect uses them. */
const REFRESH_AHEAD_MS = 60_000;
const REVOCATION_TIMEOUT_MS = 3_000;

export const CALLBACK_PATH = '/api/v1/mcp/oauth/callback';

/** What the OAuth pieces need: the database, the sealing key, "now" and our one callback URL. */
export interface OAuthContext {
  db: Kysely<DB>;
  box: SecretBox;
  clock: Clock;
  callbackUrl: string;
  /** Serialises token refresh per server inside this process; the advisory lock does across processes. */
  locks: KeyedMutex;
}

/** The server an operation acts on. */
export interface OAuthServerRef {
  id: string;
  agent_id: string;
  url: string;
}

/** A client registered by hand at an authorization server without dynamic registration. */
export interface StaticClient {
  client_id: string;
  client_secret?: string;
  scope?: string;
}

export function newState(): string {
  return randomBytes(32).toString('base64url');
}

export function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/** AAD of a sealed field: the value only opens on its own row and column. */
export function sealedField(server: Pick<OAuthServerRef, 'agent_id' | 'id'>, field: string): string {
  return `${server.agent_id}|${server.id}|${field}`;
}

/** Promise chains per key: one holder at a time, in arrival order. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    }
  }
}

interface StoredCredentials {
  row: CredentialRow | undefined;
  clientInformation: OAuthClientInformationMixed | undefined;
  tokens: OAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
}

/** Reads and writes the sealed credential row of one server. */
export class CredentialStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly ctx: Pick<OAuthContext, 'box' | 'clock'>,
    private readonly server: OAuthServerRef,
  ) {}

  private open<T>(sealed: string | null | undefined, field: string): T | undefined {
    if (!sealed) {
      return undefined;
    }
    const plain = this.ctx.box.open(sealed, sealedField(this.server, field));
    return plain === null ? undefined : (JSON.parse(plain) as T);
  }

  private seal(value: unknown, field: string): string {
    return this.ctx.box.seal(JSON.stringify(value), sealedField(this.server, field));
  }

  async read(): Promise<StoredCredentials> {
    const row = await findCredentials(this.db, this.server.id);
    return {
      row,
      clientInformation: this.open(row?.client_information_encrypted, 'client_information'),
      tokens: this.open(row?.tokens_encrypted, 'tokens'),
      discovery: this.open(row?.discovery_state_encrypted, 'discovery_state'),
    };
  }

  private async write(changes: Parameters<typeof updateCredentials>[2], expectedVersion?: number): Promise<boolean> {
    const at = this.ctx.clock.now().toISOString();
    await ensureCredentials(this.db, this.server.id, this.server.agent_id, at);
    return updateCredentials(this.db, this.server.id, { ...changes, updated_at: at }, expectedVersion);
  }

  saveClientInformation(information: OAuthClientInformationMixed | null): Promise<boolean> {
    return this.write({ client_information_encrypted: information ? this.seal(information, 'client_information') : null });
  }

  saveDiscovery(state: OAuthDiscoveryState | null): Promise<boolean> {
    return this.write({ discovery_state_encrypted: state ? this.seal(state, 'discovery_state') : null });
  }

  /** `expires_at` is computed here: a token response only says `expires_in`. */
  saveTokens(tokens: OAuthTokens, expectedVersion?: number): Promise<boolean> {
    const now = this.ctx.clock.now();
    const expiresAt = tokens.expires_in ? new Date(now.getTime() + tokens.expires_in * 1000).toISOString() : null;
    return this.write(
      { tokens_encrypted: this.seal(tokens, 'tokens'), obtained_at: now.toISOString(), expires_at: expiresAt },
      expectedVersion,
    );
  }

  /**
   * Drops the tokens, but only while the stored refresh token is still `failedRefreshToken`: a
   * worker whose refresh lost a race must not wipe the token the winner just stored.
   */
  async clearTokensIf(failedRefreshToken: string | undefined): Promise<void> {
    const current = await this.read();
    if (!current.row || !current.tokens) {
      return;
    }
    if (failedRefreshToken !== undefined && current.tokens.refresh_token !== failedRefreshToken) {
      return;
    }
    await this.write({ tokens_encrypted: null, obtained_at: null, expires_at: null }, current.row.version);
  }
}

export interface ProviderOptions {
  mode: 'probe' | 'callback';
  staticClient?: StaticClient;
  /** Callback mode: the verifier of the pending flow. */
  codeVerifier?: string;
  /** Fallback scope when neither the server's challenge nor its metadata names one. */
  scope?: string;
}

/**
 * The SDK's `OAuthClientProvider`, backed by the database (mcp-connect.md §9). Nothing redirects:
 * the authorization URL and PKCE verifier are kept on the instance for the service to check and
 * store as a pending flow. In probe mode `tokens()` hides the refresh token, so the SDK never
 * refreshes on its own: refreshing is ours, single-flight (`refreshTokensOnce`).
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly stateValue = newState();
  authorizationUrl: URL | undefined;
  private verifier: string | undefined;
  /** The discovery state last saved or read: the service checks the AS metadata with it. */
  discovery: OAuthDiscoveryState | undefined;
  /** The tokens last handed to the SDK, to tell a rejected access token from a rotated one. */
  lastAccessToken: string | undefined;
  lastRefreshToken: string | undefined;
  private readonly store: CredentialStore;

  constructor(
    private readonly ctx: OAuthContext,
    server: OAuthServerRef,
    private readonly options: ProviderOptions,
  ) {
    this.store = new CredentialStore(ctx.db, ctx, server);
  }

  get redirectUrl(): string {
    return this.ctx.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Switchboard',
      redirect_uris: [this.ctx.callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
      // Not in the SDK's 1.32 type; registration posts it as given.
      application_type: 'web',
    } as OAuthClientMetadata;
  }

  state(): string {
    return this.stateValue;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const fixed = this.options.staticClient;
    if (fixed) {
      return { client_id: fixed.client_id, ...(fixed.client_secret ? { client_secret: fixed.client_secret } : {}) };
    }
    const { clientInformation } = await this.store.read();
    // Registered for another callback URL (PUBLIC_BASE_URL changed): register again.
    const registeredFor = (clientInformation as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
    if (clientInformation && registeredFor !== undefined && registeredFor !== this.ctx.callbackUrl) {
      return undefined;
    }
    return clientInformation;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (!this.options.staticClient) {
      await this.store.saveClientInformation(information);
    }
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const { tokens } = await this.store.read();
    this.lastAccessToken = tokens?.access_token;
    this.lastRefreshToken = tokens?.refresh_token;
    if (!tokens || this.options.mode === 'callback') {
      return tokens;
    }
    const { refresh_token: _hidden, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.saveTokens(tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    const verifier = this.options.codeVerifier ?? this.verifier;
    if (!verifier) {
      throw new Error('no PKCE verifier for this flow');
    }
    return verifier;
  }

  get savedCodeVerifier(): string | undefined {
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if ((scope === 'all' || scope === 'client') && !this.options.staticClient) {
      await this.store.saveClientInformation(null);
    }
    if ((scope === 'all' || scope === 'tokens') && this.options.mode === 'probe' && this.lastAccessToken) {
      await this.store.clearTokensIf(this.lastRefreshToken);
    }
    if (scope === 'all' || scope === 'discovery') {
      this.discovery = undefined;
      await this.store.saveDiscovery(null);
    }
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    await this.store.saveDiscovery(state);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const { discovery } = await this.store.read();
    this.discovery = discovery;
    return discovery;
  }
}

export type RefreshOutcome =
  | { kind: 'refreshed' }
  /** Someone else refreshed meanwhile (or nothing was due): use what is stored. */
  | { kind: 'fresh' }
  | { kind: 'no_refresh_token' }
  /** The AS refused the grant or the client for good; the tokens are gone. */
  | { kind: 'invalid_grant' }
  /** Network or server trouble: credentials are kept. */
  | { kind: 'failed'; error: unknown };

/**
 * Refreshes the tokens of a server at most once however many callers ask together: an in-process
 * mutex plus an advisory lock (PostgreSQL) per server, then a re-read, so the callers queued
 * behind the winner find its tokens and do nothing. `rejected` names the access token a server
 * just refused; `expiring` refreshes tokens about to lapse. The write is compare-and-swap on the
 * row's version.
 */
export async function refreshTokensOnce(
  ctx: OAuthContext,
  server: OAuthServerRef,
  reason: { kind: 'rejected'; accessToken: string } | { kind: 'expiring' },
  options: { fetchFn: FetchLike; staticClient?: StaticClient },
): Promise<RefreshOutcome> {
  // Before the locks: the first refresh of a process must not hold them while the SDK loads.
  const { clientAuth, authErrors } = await loadMcpSdk();
  const { InvalidClientError, InvalidGrantError, UnauthorizedClientError } = authErrors;
  return ctx.locks.run(server.id, () =>
    withAdvisoryLock(ctx.db, `mcp-oauth-refresh:${server.id}`, async (db) => {
      const store = new CredentialStore(db, ctx, server);
      const current = await store.read();
      const refreshToken = current.tokens?.refresh_token;
      if (!current.row || !current.tokens || !refreshToken) {
        return { kind: 'no_refresh_token' } as const;
      }
      const due =
        reason.kind === 'rejected'
          ? current.tokens.access_token === reason.accessToken
          : tokensExpiring(current.row.expires_at, ctx.clock);
      if (!due) {
        return { kind: 'fresh' } as const;
      }
      const provider = new McpOAuthProvider({ ...ctx, db }, server, { mode: 'probe', staticClient: options.staticClient });
      const clientInformation = await provider.clientInformation();
      if (!clientInformation) {
        return { kind: 'no_refresh_token' } as const;
      }
      try {
        let discovery = current.discovery;
        if (!discovery?.authorizationServerUrl) {
          discovery = await clientAuth.discoverOAuthServerInfo(server.url, { fetchFn: options.fetchFn });
          await store.saveDiscovery(discovery);
        }
        const resource = discovery.resourceMetadata
          ? (await clientAuth.selectResourceURL(server.url, provider, discovery.resourceMetadata)) &&
            discovery.resourceMetadata.resource
          : undefined;
        const tokens = await clientAuth.refreshAuthorization(discovery.authorizationServerUrl, {
          metadata: discovery.authorizationServerMetadata,
          clientInformation,
          refreshToken,
          resource,
          fetchFn: options.fetchFn,
        });
        // Stamped like the SDK stamps what it stores, so it reads them back as this AS's.
        const written = await store.saveTokens({ ...tokens, issuer: discovery.authorizationServerUrl }, current.row.version);
        return written ? ({ kind: 'refreshed' } as const) : ({ kind: 'fresh' } as const);
      } catch (error) {
        if ((error instanceof InvalidClientError || error instanceof UnauthorizedClientError) && !options.staticClient) {
          // The AS no longer knows the registered client: register again on the next connect.
          await store.saveClientInformation(null);
        }
        if (
          error instanceof InvalidGrantError ||
          error instanceof InvalidClientError ||
          error instanceof UnauthorizedClientError
        ) {
          await store.clearTokensIf(refreshToken);
          return { kind: 'invalid_grant' } as const;
        }
        return { kind: 'failed', error } as const;
      }
    }),
  );
}

export function tokensExpiring(expiresAt: string | null | undefined, clock: Clock): boolean {
  return (
    expiresAt !== null && expiresAt !== undefined && new Date(expiresAt).getTime() - clock.now().getTime() < REFRESH_AHEAD_MS
  );
}

/**
 * RFC 7009, best effort: the refresh token, then the access token, at the AS's revocation
 * endpoint if it has one, with the client's token-endpoint authentication and a short timeout.
 * Failures are swallowed: removal never waits on an unreachable authorization server for long.
 */
export async function revokeStoredTokens(
  ctx: Pick<OAuthContext, 'db' | 'box' | 'clock'>,
  server: OAuthServerRef,
  options: { fetchFn: FetchLike; staticClient?: StaticClient },
): Promise<void> {
  const stored = await new CredentialStore(ctx.db, ctx, server).read();
  const metadata = stored.discovery?.authorizationServerMetadata as
    | (AuthorizationServerMetadata & { revocation_endpoint?: string; revocation_endpoint_auth_methods_supported?: string[] })
    | undefined;
  const endpoint = metadata?.revocation_endpoint;
  const client: OAuthClientInformationMixed | undefined = options.staticClient
    ? { client_id: options.staticClient.client_id, client_secret: options.staticClient.client_secret }
    : stored.clientInformation;
  if (!stored.tokens || !endpoint || !client) {
    return;
  }
  const supported = metadata.revocation_endpoint_auth_methods_supported ?? metadata.token_endpoint_auth_methods_supported ?? [];
  const method = (await loadMcpSdk()).clientAuth.selectClientAuthMethod(client, supported);
  const pairs: [string | undefined, string][] = [
    [stored.tokens.refresh_token, 'refresh_token'],
    [stored.tokens.access_token, 'access_token'],
  ];
  for (const [token, hint] of pairs) {
    if (!token) {
      continue;
    }
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    if (method === 'client_secret_basic' && client.client_secret) {
      headers.set('authorization', `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`);
    } else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret) {
        body.set('client_secret', client.client_secret);
      }
    }
    try {
      const response = await options.fetchFn(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(REVOCATION_TIMEOUT_MS),
      });
      await response.body?.cancel();
    } catch {
      // Best effort: the credentials are deleted either way.
    }
  }
}
