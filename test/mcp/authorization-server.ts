import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidRequestError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type Response } from 'express';

/**
 * A real OAuth 2.1 authorization server on loopback for the MCP tests (mcp-connect.md §10): the
 * SDK's `mcpAuthRouter` (metadata, DCR, authorize, token with PKCE S256, refresh, revocation) over
 * an in-memory provider. Refresh tokens rotate, and reusing one revokes its whole grant.
 */

export const SCOPES = ['mcp:tools'];

interface CodeEntry {
  clientId: string;
  challenge: string;
  redirectUri: string;
  resource: string | undefined;
  scopes: string[];
  used: boolean;
}

interface TokenEntry {
  clientId: string;
  scopes: string[];
  resource: string | undefined;
  grant: string;
  expiresAt: number;
  revoked: boolean;
  used?: boolean;
}

export class TestOAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, CodeEntry>();
  readonly accessTokens = new Map<string, TokenEntry>();
  readonly refreshTokens = new Map<string, TokenEntry>();
  readonly revocations: { token: string; hint: string | undefined }[] = [];
  registrations = 0;
  codeExchanges = 0;
  refreshes = 0;
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(
    private readonly options: {
      dynamicRegistration: boolean;
      issuer: () => string;
      issParameter: boolean;
      lifetimeSeconds: number;
    },
  ) {
    const store: OAuthRegisteredClientsStore = { getClient: (id) => this.clients.get(id) };
    if (options.dynamicRegistration) {
      store.registerClient = (client) => {
        this.registrations++;
        // The SDK's registration handler has already assigned a client_id.
        const given = (client as Partial<OAuthClientInformationFull>).client_id;
        const full = { ...client, client_id: given ?? randomUUID() } as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        return full;
      };
    }
    this.clientsStore = store;
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    if (!client.redirect_uris.includes(params.redirectUri)) {
      throw new InvalidRequestError('unregistered redirect_uri');
    }
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      clientId: client.client_id,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
      resource: params.resource?.href,
      scopes: params.scopes ?? [],
      used: false,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state) {
      target.searchParams.set('state', params.state);
    }
    if (this.options.issParameter) {
      target.searchParams.set('iss', this.options.issuer());
    }
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry || entry.clientId !== client.client_id) {
      throw new InvalidGrantError('unknown code');
    }
    return entry.challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    this.codeExchanges++;
    const entry = this.codes.get(code);
    if (!entry || entry.used || entry.clientId !== client.client_id) {
      throw new InvalidGrantError('code not valid');
    }
    if (redirectUri !== entry.redirectUri || resource?.href !== entry.resource) {
      throw new InvalidGrantError('code issued for another redirect_uri or resource');
    }
    entry.used = true;
    return this.issue(client.client_id, entry.scopes, entry.resource, randomUUID());
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    this.refreshes++;
    const entry = this.refreshTokens.get(refreshToken);
    if (!entry || entry.clientId !== client.client_id || entry.revoked) {
      throw new InvalidGrantError('refresh token not valid');
    }
    if (entry.used) {
      // Reuse of a rotated refresh token: the grant is compromised, revoke all of it.
      this.revokeGrant(entry.grant);
      throw new InvalidGrantError('refresh token reused');
    }
    if (resource && resource.href !== entry.resource) {
      throw new InvalidGrantError('resource mismatch');
    }
    entry.used = true;
    return this.issue(client.client_id, entry.scopes, entry.resource, entry.grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.accessTokens.get(token);
    if (!entry || entry.revoked || entry.expiresAt < Date.now() / 1000) {
      throw new InvalidTokenError('token not valid');
    }
    return {
      token,
      clientId: entry.clientId,
      scopes: entry.scopes,
      expiresAt: entry.expiresAt,
      ...(entry.resource ? { resource: new URL(entry.resource) } : {}),
    };
  }

  async revokeToken(_client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    this.revocations.push({ token: request.token, hint: request.token_type_hint });
    const entry = this.accessTokens.get(request.token) ?? this.refreshTokens.get(request.token);
    if (entry) {
      entry.revoked = true;
    }
  }

  /** The AS's view only: our side still thinks the tokens are good. */
  expireAllAccessTokens(): void {
    for (const entry of this.accessTokens.values()) {
      entry.expiresAt = Math.floor(Date.now() / 1000) - 10;
    }
  }

  revokeAllRefreshTokens(): void {
    for (const entry of this.refreshTokens.values()) {
      entry.revoked = true;
    }
  }

  /** Whether `token` (access or refresh) is still honoured. */
  isLive(token: string): boolean {
    const entry = this.accessTokens.get(token) ?? this.refreshTokens.get(token);
    return entry !== undefined && !entry.revoked && !entry.used;
  }

  private revokeGrant(grant: string): void {
    for (const entry of [...this.accessTokens.values(), ...this.refreshTokens.values()]) {
      if (entry.grant === grant) {
        entry.revoked = true;
      }
    }
  }

  private issue(clientId: string, scopes: string[], resource: string | undefined, grant: string): OAuthTokens {
    const accessToken = `at_${randomBytes(16).toString('hex')}`;
    const refreshToken = `rt_${randomBytes(16).toString('hex')}`;
    const expiresAt = Math.floor(Date.now() / 1000) + this.options.lifetimeSeconds;
    this.accessTokens.set(accessToken, { clientId, scopes, resource, grant, expiresAt, revoked: false });
    this.refreshTokens.set(refreshToken, {
      clientId,
      scopes,
      resource,
      grant,
      expiresAt: Number.MAX_SAFE_INTEGER,
      revoked: false,
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.options.lifetimeSeconds,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
    };
  }
}

export interface TestAuthorizationServer {
  /** The issuer, `http://127.0.0.1:<port>/`. */
  url: string;
  provider: TestOAuthProvider;
  /** Adds a client registered out of band (for servers without DCR). */
  addClient(client: { client_id: string; client_secret?: string; redirect_uris: string[] }): void;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  dynamicRegistration?: boolean;
  /** false: the metadata omits code_challenge_methods_supported. */
  advertiseS256?: boolean;
  /** RFC 9207: advertise and send `iss` on the redirect. */
  issParameter?: boolean;
}

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const app = express();
  const server = createServer(app);
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/`;
  const provider = new TestOAuthProvider({
    dynamicRegistration: options.dynamicRegistration ?? true,
    issuer: () => url,
    issParameter: options.issParameter ?? false,
    lifetimeSeconds: 3600,
  });
  const issuerUrl = new URL(url);
  if (options.advertiseS256 === false || options.issParameter) {
    // Mounted first, so it wins over the router's own metadata.
    const metadata: Record<string, unknown> = { ...createOAuthMetadata({ provider, issuerUrl, scopesSupported: SCOPES }) };
    if (options.advertiseS256 === false) {
      delete metadata.code_challenge_methods_supported;
    }
    if (options.issParameter) {
      metadata.authorization_response_iss_parameter_supported = true;
    }
    app.get('/.well-known/oauth-authorization-server', (_request, response) => {
      response.json(metadata);
    });
  }
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported: SCOPES,
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );
  return {
    url,
    provider,
    addClient: (client) => {
      provider.clients.set(client.client_id, {
        ...client,
        token_endpoint_auth_method: client.client_secret ? 'client_secret_post' : 'none',
      });
    },
    close: () => closeServer(server),
  };
}

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
