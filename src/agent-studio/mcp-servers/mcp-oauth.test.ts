import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../../../test/mcp/authorization-server.js';
import { startProtectedMcpServer, startToolAuthMcpServer, type TestMcpServer } from '../../../test/mcp/mcp-servers.js';
import { buildApp } from '../../app.js';
import { connectPostgres } from '../../db/connect.js';
import { createLogger } from '../../http/logging.js';

const RETURN_URL = 'https://app.example.com/integrations/done';
const ENV = {
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  SECRET_KEY: 'a1'.repeat(32),
  MCP_OAUTH_RETURN_URL: RETURN_URL,
  LOG_LEVEL: 'info',
};
const CALLBACK = 'http://localhost:3000/api/v1/mcp/oauth/callback';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('MCP connect with OAuth on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let as: TestAuthorizationServer;
  let mcp: TestMcpServer;
  const logLines: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void logLines.push(line) });
    harness = await buildTestApp(dialect, { env: ENV, log });
    acme = await makeOrganization(harness);
    other = await makeUser(harness, acme.organizationId, { userType: 'ORG_ADMIN' });
    as = await startAuthorizationServer();
    mcp = await startProtectedMcpServer(as);
    closers.push(as.close, mcp.close);
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all(closers.map((close) => close()));
  });

  async function newAgent(app: FastifyInstance = harness.app): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/v1/agents', headers: acme.headers, payload: { name: 'Bot' } });
    return response.json().id;
  }
  async function addServer(agentId: string, url: string, extra: Json = {}): Promise<string> {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/mcp/agents/${agentId}/servers`,
      headers: acme.headers,
      payload: { name: 'Protected', url, ...extra },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id;
  }
  const connect = (agentId: string, serverId: string, app: FastifyInstance = harness.app) =>
    app.inject({ method: 'POST', url: `/api/v1/mcp/agents/${agentId}/servers/${serverId}/connect`, headers: acme.headers });
  const getServer = async (agentId: string, serverId: string) =>
    (await harness.app.inject({ url: `/api/v1/mcp/agents/${agentId}/servers/${serverId}`, headers: acme.headers })).json();

  /** Plays the browser: follows the authorization URL to the test AS and returns where it sends us back. */
  async function authorize(authorizationUrl: string): Promise<URL> {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') ?? '');
  }
  const callback = (location: URL, headers: Record<string, string> = {}) =>
    harness.app.inject({ url: location.pathname + location.search, headers });

  /** A server connected through the whole flow; returns ids and the callback location used. */
  async function connectedServer(url = mcp.url, extra: Json = {}) {
    const agentId = await newAgent();
    const serverId = await addServer(agentId, url, extra);
    const started = (await connect(agentId, serverId)).json();
    expect(started.status, JSON.stringify(started)).toBe('auth_required');
    const location = await authorize(started.authorization_url);
    const done = await callback(location);
    expect(done.statusCode, done.body).toBe(302);
    return { agentId, serverId, location, done };
  }

  const credentials = (serverId: string) =>
    harness.db.selectFrom('mcp_oauth_credentials').selectAll().where('server_id', '=', serverId).executeTakeFirst();
  const flows = (serverId: string) =>
    harness.db.selectFrom('mcp_oauth_pending_flows').selectAll().where('server_id', '=', serverId).execute();

  it('first connect: auth_required with a real authorization URL, one registration, a pending flow', async () => {
    const registrations = as.provider.registrations;
    const agentId = await newAgent();
    const serverId = await addServer(agentId, mcp.url);
    const response = await connect(agentId, serverId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      status: 'auth_required',
      message: `Authorization required by ${as.url}`,
      authorization_url: expect.any(String),
    });
    const url = new URL(body.authorization_url);
    expect(url.origin + url.pathname).toBe(`${as.url}authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: expect.any(String),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      redirect_uri: CALLBACK,
      state: expect.stringMatching(/^[\w-]{43}$/),
      scope: 'mcp:tools',
      resource: mcp.url,
    });
    expect(as.provider.registrations).toBe(registrations + 1);
    const client = as.provider.clients.get(url.searchParams.get('client_id') ?? '');
    expect(client).toMatchObject({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', client_name: 'Switchboard' });
    const [flow, ...more] = await flows(serverId);
    expect(more).toEqual([]);
    expect(flow).toMatchObject({
      agent_id: agentId,
      user_id: acme.userId,
      consumed_at: null,
      scope: 'mcp:tools',
      issuer: as.url,
    });
    expect(flow?.state_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(flow?.state_hash).not.toBe(url.searchParams.get('state'));
    expect(await getServer(agentId, serverId)).toMatchObject({ status: 'disconnected', connection_state: 'pending_auth' });
  });

  it('callback with the state: tokens stored encrypted, flow consumed, server connected with its tools', async () => {
    const exchanges = as.provider.codeExchanges;
    const { agentId, serverId, location, done } = await connectedServer();
    expect(done.headers.location).toBe(`${RETURN_URL}?mcp=connected&agent_id=${agentId}&server_id=${serverId}`);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(as.provider.codeExchanges).toBe(exchanges + 1);
    expect(await getServer(agentId, serverId)).toMatchObject({
      status: 'connected',
      connection_state: 'connected',
      status_message: 'Connected to protected-test-server 1.2.3',
      tools_count: 2,
      token_expires_at: new Date(new Date(TEST_NOW).getTime() + 3600_000).toISOString(),
    });
    const stored = await credentials(serverId);
    const raw = JSON.stringify(stored);
    for (const token of [...as.provider.accessTokens.keys(), ...as.provider.refreshTokens.keys()]) {
      expect(raw).not.toContain(token);
    }
    expect(raw).not.toContain(location.searchParams.get('code') ?? 'x');
    expect(stored?.tokens_encrypted).toMatch(/^[\w-]{8}:[\w-]+:[\w-]+:[\w-]+$/);
    const [flow] = await flows(serverId);
    expect(flow?.consumed_at).not.toBeNull();
    expect(JSON.stringify(flow)).not.toContain(location.searchParams.get('state') ?? 'x');
    // Connected again later: the stored token does, no new registration or URL.
    const registrations = as.provider.registrations;
    expect((await connect(agentId, serverId)).json()).toEqual({
      status: 'connected',
      message: 'Connected to protected-test-server 1.2.3',
      authorization_url: null,
    });
    expect(as.provider.registrations).toBe(registrations);
  });

  it('refuses a replayed, forged or expired state and a callback from another user: 400, no token exchange', async () => {
    const { agentId, serverId, location } = await connectedServer();
    const exchanges = as.provider.codeExchanges;
    const replay = await callback(location);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ detail: 'Invalid or expired authorization state' });
    const forged = new URL(location);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await callback(forged)).statusCode).toBe(400);
    expect((await harness.app.inject({ url: '/api/v1/mcp/oauth/callback?code=abc' })).statusCode).toBe(400);

    const fresh = (await connect(agentId, serverId)).json();
    expect(fresh.status).toBe('connected');
    // A new flow on a new server: expired after 10 minutes, and bound to the user who started it.
    const second = await addServer(agentId, mcp.url);
    const started = (await connect(agentId, second)).json();
    const back = await authorize(started.authorization_url);
    const fromOther = await callback(back, other.headers);
    expect(fromOther.statusCode).toBe(400);
    harness.clock.advance(11 * 60 * 1000);
    try {
      expect((await callback(back)).statusCode).toBe(400);
    } finally {
      harness.clock.set(TEST_NOW);
    }
    const [flow] = await flows(second);
    expect(flow?.consumed_at).toBeNull();
    expect(as.provider.codeExchanges).toBe(exchanges);
    // Still good within its lifetime, for its own user.
    expect((await callback(back, acme.headers)).statusCode).toBe(302);
    expect(await getServer(agentId, second)).toMatchObject({ status: 'connected' });
  });

  it('callback with error=access_denied: status error, the description never echoed', async () => {
    const agentId = await newAgent();
    const serverId = await addServer(agentId, mcp.url);
    const started = (await connect(agentId, serverId)).json();
    const state = new URL(started.authorization_url).searchParams.get('state') ?? '';
    const response = await harness.app.inject({
      url: `/api/v1/mcp/oauth/callback?error=access_denied&error_description=${encodeURIComponent('<script>nope</script>')}&state=${state}`,
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${RETURN_URL}?mcp=error&agent_id=${agentId}&server_id=${serverId}`);
    const server = await getServer(agentId, serverId);
    expect(server).toMatchObject({ status: 'error', status_message: 'authorization denied' });
    expect(JSON.stringify(server)).not.toContain('script');
    expect((await flows(serverId))[0]?.consumed_at).not.toBeNull();
  });

  it('refreshes an access token the AS expired, without the user: connected, no URL, refresh token rotated', async () => {
    const { agentId, serverId } = await connectedServer();
    const liveRefresh = [...as.provider.refreshTokens.keys()].filter((token) => as.provider.isLive(token));
    const refreshes = as.provider.refreshes;
    as.provider.expireAllAccessTokens();
    const response = await connect(agentId, serverId);
    expect(response.json()).toEqual({
      status: 'connected',
      message: 'Connected to protected-test-server 1.2.3',
      authorization_url: null,
    });
    expect(as.provider.refreshes).toBe(refreshes + 1);
    expect(liveRefresh.filter((token) => as.provider.isLive(token)).length).toBe(liveRefresh.length - 1);
  });

  it('refreshes ahead of expiry by its own clock before connecting', async () => {
    const { agentId, serverId } = await connectedServer();
    const refreshes = as.provider.refreshes;
    harness.clock.advance(2 * 3600 * 1000);
    try {
      expect((await connect(agentId, serverId)).json()).toMatchObject({ status: 'connected' });
      expect(as.provider.refreshes).toBe(refreshes + 1);
      const server = await getServer(agentId, serverId);
      expect(server.token_expires_at).toBe(new Date(harness.clock.now().getTime() + 3600_000).toISOString());
    } finally {
      harness.clock.set(TEST_NOW);
    }
  });

  it('ten concurrent connects after expiry at a reuse-detecting AS: exactly one refresh, all connected', async () => {
    const { agentId, serverId } = await connectedServer();
    as.provider.expireAllAccessTokens();
    const refreshes = as.provider.refreshes;
    // On PostgreSQL half the requests go through a second app on the same database: another process.
    let second: { app: FastifyInstance; close(): Promise<void> } | undefined;
    if (dialect === 'postgres' && harness.url) {
      const handle = connectPostgres(harness.url, 3);
      const app = await buildApp({
        config: harness.config,
        db: handle.db,
        clock: harness.clock,
        log: createLogger({ LOG_LEVEL: 'silent' }),
      });
      second = {
        app,
        close: async () => {
          await app.close();
          await handle.close();
        },
      };
    }
    try {
      const apps = Array.from({ length: 10 }, (_, i) => (second && i % 2 ? second.app : harness.app));
      const results = await Promise.all(apps.map((app) => connect(agentId, serverId, app)));
      expect(results.map((response) => response.json().status)).toEqual(Array(10).fill('connected'));
      expect(as.provider.refreshes).toBe(refreshes + 1);
    } finally {
      await second?.close();
    }
  });

  it('an unreachable AS at refresh time: error, and the credentials are kept', async () => {
    const ownAs = await startAuthorizationServer();
    const server = await startProtectedMcpServer(ownAs);
    closers.push(server.close);
    const { agentId, serverId } = await connectedServer(server.url);
    const before = await credentials(serverId);
    ownAs.provider.expireAllAccessTokens();
    await ownAs.close();
    const response = await connect(agentId, serverId);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ status: 'error', message: 'token refresh failed', authorization_url: null });
    expect((await credentials(serverId))?.tokens_encrypted).toBe(before?.tokens_encrypted);
  });

  it('a revoked refresh token: auth_required with a fresh URL', async () => {
    const { agentId, serverId } = await connectedServer();
    as.provider.revokeAllRefreshTokens();
    as.provider.expireAllAccessTokens();
    const response = await connect(agentId, serverId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'auth_required', authorization_url: expect.stringContaining(`${as.url}authorize?`) });
    expect(await getServer(agentId, serverId)).toMatchObject({ connection_state: 'pending_auth' });
    const stored = await credentials(serverId);
    expect(stored?.tokens_encrypted).toBeNull();
    expect((await callback(await authorize(body.authorization_url))).statusCode).toBe(302);
    expect(await getServer(agentId, serverId)).toMatchObject({ status: 'connected' });
  });

  it('removing revokes the tokens at the AS and forgets everything; the next connect starts over', async () => {
    const { agentId, serverId } = await connectedServer();
    const before = as.provider.revocations.length;
    const live = [...as.provider.accessTokens.keys(), ...as.provider.refreshTokens.keys()].filter((token) =>
      as.provider.isLive(token),
    );
    const removed = await harness.app.inject({
      method: 'DELETE',
      url: `/api/v1/mcp/agents/${agentId}/servers/${serverId}`,
      headers: acme.headers,
    });
    expect(removed.json()).toEqual({ status: 'success', message: 'MCP server removed' });
    const revoked = as.provider.revocations.slice(before);
    expect(revoked.map((entry) => entry.hint)).toEqual(['refresh_token', 'access_token']);
    expect(revoked.every((entry) => live.includes(entry.token))).toBe(true);
    expect(await credentials(serverId)).toBeUndefined();
    expect(await flows(serverId)).toEqual([]);
    const again = await harness.app.inject({
      method: 'DELETE',
      url: `/api/v1/mcp/agents/${agentId}/servers/${serverId}`,
      headers: acme.headers,
    });
    expect(again.statusCode).toBe(404);
    const registrations = as.provider.registrations;
    const anew = await addServer(agentId, mcp.url);
    expect((await connect(agentId, anew)).json().status).toBe('auth_required');
    expect(as.provider.registrations).toBe(registrations + 1);
  });

  it('an AS without registration needs a pre-registered client, which then works with its secret', async () => {
    const noDcr = await startAuthorizationServer({ dynamicRegistration: false });
    const server = await startProtectedMcpServer(noDcr);
    closers.push(noDcr.close, server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url);
    const refused = await connect(agentId, serverId);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({ status: 'error', message: 'configure a pre-registered client_id', authorization_url: null });

    noDcr.addClient({ client_id: 'switchboard-static', client_secret: 'static-client-secret', redirect_uris: [CALLBACK] });
    const updated = await harness.app.inject({
      method: 'PUT',
      url: `/api/v1/mcp/agents/${agentId}/servers/${serverId}`,
      headers: acme.headers,
      payload: { auth_config: { client_id: 'switchboard-static', client_secret: 'static-client-secret' } },
    });
    expect(updated.json().auth_config).toEqual({ type: 'oauth2', client_id: 'switchboard-static' });
    expect(updated.body).not.toContain('static-client-secret');
    const started = (await connect(agentId, serverId)).json();
    expect(started.status).toBe('auth_required');
    expect(new URL(started.authorization_url).searchParams.get('client_id')).toBe('switchboard-static');
    expect((await callback(await authorize(started.authorization_url))).statusCode).toBe(302);
    expect(await getServer(agentId, serverId)).toMatchObject({ status: 'connected' });
  });

  it.each([
    [
      'metadata bound to another resource',
      { resource: 'https://elsewhere.example.com/mcp' },
      {},
      'resource metadata not bound to this server',
    ],
    ['an AS that does not advertise S256', {}, { advertiseS256: false }, 'PKCE S256 not supported'],
  ])('%s: status error with a specific message', async (_, serverOptions, asOptions, message) => {
    const otherAs = await startAuthorizationServer(asOptions);
    const server = await startProtectedMcpServer(otherAs, serverOptions);
    closers.push(otherAs.close, server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url);
    const response = await connect(agentId, serverId);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ status: 'error', message, authorization_url: null });
    expect(await flows(serverId)).toEqual([]);
  });

  it('a server that refuses the tokens it asked for: token rejected after authorization', async () => {
    const server = await startProtectedMcpServer(as, { expectedResource: 'https://other-audience.example.com/' });
    closers.push(server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url);
    const started = (await connect(agentId, serverId)).json();
    expect((await callback(await authorize(started.authorization_url))).headers.location).toContain('mcp=error');
    expect(await getServer(agentId, serverId)).toMatchObject({
      status: 'error',
      status_message: 'token rejected after authorization (audience or resource misconfigured)',
    });
  });

  it('assume_pkce_s256 lets an AS whose metadata omits the methods through', async () => {
    const otherAs = await startAuthorizationServer({ advertiseS256: false });
    const server = await startProtectedMcpServer(otherAs);
    closers.push(otherAs.close, server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url, { auth_config: { assume_pkce_s256: true } });
    const started = (await connect(agentId, serverId)).json();
    expect(started.status).toBe('auth_required');
    expect((await callback(await authorize(started.authorization_url))).statusCode).toBe(302);
    expect(await getServer(agentId, serverId)).toMatchObject({ status: 'connected' });
  });

  it('an AS that sends iss (RFC 9207): a forged iss is refused, the real one accepted', async () => {
    const issAs = await startAuthorizationServer({ issParameter: true });
    const server = await startProtectedMcpServer(issAs);
    closers.push(issAs.close, server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url);
    const first = await authorize((await connect(agentId, serverId)).json().authorization_url);
    expect(first.searchParams.get('iss')).toBe(issAs.url);
    first.searchParams.set('iss', 'https://evil.example.com/');
    expect((await callback(first)).headers.location).toContain('mcp=error');
    expect(await getServer(agentId, serverId)).toMatchObject({
      status_message: 'authorization server metadata does not match its issuer',
    });
    const second = await authorize((await connect(agentId, serverId)).json().authorization_url);
    expect((await callback(second)).headers.location).toContain('mcp=connected');
  });

  it('a server that opens initialize but wants auth for its tools: auth_required, then connected', async () => {
    const server = await startToolAuthMcpServer(as);
    closers.push(server.close);
    const agentId = await newAgent();
    const serverId = await addServer(agentId, server.url);
    const started = (await connect(agentId, serverId)).json();
    expect(started).toMatchObject({ status: 'auth_required', authorization_url: expect.stringContaining('resource=') });
    expect((await callback(await authorize(started.authorization_url))).headers.location).toContain('mcp=connected');
    expect(await getServer(agentId, serverId)).toMatchObject({ status: 'connected', tools_count: 1 });
  });

  it('never writes a token, code, state, verifier or client secret to the log', async () => {
    const log = logLines.join('\n');
    expect(log).toContain('mcp connect');
    const secrets = [
      ...as.provider.accessTokens.keys(),
      ...as.provider.refreshTokens.keys(),
      ...as.provider.codes.keys(),
      'static-client-secret',
    ];
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/[?&]state=[\w-]{43}/);
    expect(log).not.toMatch(/[?&]code=[0-9a-f]{32}/);
  });
});
