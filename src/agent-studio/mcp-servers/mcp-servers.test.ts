import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../../../test/mcp/authorization-server.js';
import {
  startBareUnauthorizedServer,
  startHtmlServer,
  startProtectedMcpServer,
  startPublicMcpServer,
  startSseOnlyMcpServer,
  type TestMcpServer,
} from '../../../test/mcp/mcp-servers.js';

const ALLOW_LOOPBACK = { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
const UNKNOWN = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';

describe.each(DIALECTS)('MCP servers of an agent on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let agentId: string;
  let publicServer: TestMcpServer;
  let headerServer: TestMcpServer;
  let sseServer: TestMcpServer;
  let bareServer: TestMcpServer;
  let htmlServer: TestMcpServer;
  let as: TestAuthorizationServer;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: ALLOW_LOOPBACK });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
    agentId = (await post('/api/v1/agents', { name: 'Support bot' })).json().id;
    [publicServer, headerServer, sseServer, bareServer, htmlServer, as] = await Promise.all([
      startPublicMcpServer(),
      startPublicMcpServer({ requireHeader: { name: 'x-test-key', value: 'header-secret-value' } }),
      startSseOnlyMcpServer(),
      startBareUnauthorizedServer(),
      startHtmlServer(),
      startAuthorizationServer(),
    ]);
    closers.push(publicServer.close, headerServer.close, sseServer.close, bareServer.close, htmlServer.close, as.close);
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all(closers.map((close) => close()));
  });

  function post(url: string, payload?: object, headers: Record<string, string> = acme.headers) {
    return harness.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  }
  const get = (url: string, headers: Record<string, string> = acme.headers) => harness.app.inject({ url, headers });
  const servers = (agent = agentId) => `/api/v1/mcp/agents/${agent}/servers`;
  async function addServer(body: Record<string, unknown>, agent = agentId) {
    const response = await post(servers(agent), { name: 'Server', ...body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: string } & Record<string, unknown>;
  }
  const connect = (serverId: string, headers: Record<string, string> = acme.headers, agent = agentId) =>
    post(`${servers(agent)}/${serverId}/connect`, undefined, headers);
  const countServers = async () => (await get(servers())).json().length as number;

  it('creates a server: 200, disconnected until connected, secrets of auth_config never shown', async () => {
    const response = await post(servers(), {
      name: 'Docs',
      url: publicServer.url,
      auth_config: { type: 'oauth2', client_id: 'pre-registered', client_secret: 'client-secret-value', scope: 'mcp:tools' },
      health_check_url: 'https://status.example.com/health',
    });
    expect(response.statusCode).toBe(200);
    const server = response.json();
    expect(server).toEqual({
      id: expect.any(String),
      agent_id: agentId,
      name: 'Docs',
      url: publicServer.url,
      auth_config: { type: 'oauth2', client_id: 'pre-registered', scope: 'mcp:tools' },
      tool_discovery_endpoint: '/tools',
      health_check_url: 'https://status.example.com/health',
      status: 'disconnected',
      connection_state: 'disconnected',
      status_message: null,
      transport: null,
      is_enabled: true,
      tools_count: 0,
      last_connected_at: null,
      last_health_check: null,
      token_expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.body).not.toContain('client-secret-value');
    expect((await get(`${servers()}/${server.id}`)).json()).toEqual(server);
    const list = await get(servers());
    expect(list.body).not.toContain('client-secret-value');
    const stored = await harness.db
      .selectFrom('mcp_servers')
      .select(['client_secret_encrypted'])
      .where('id', '=', server.id)
      .executeTakeFirst();
    expect(stored?.client_secret_encrypted).toMatch(/^[\w-]{8}:/);
    expect(stored?.client_secret_encrypted).not.toContain('client-secret-value');
  });

  it.each([
    [{ url: 'https://mcp.example.com/mcp' }, ['body', 'name'], 'missing'],
    [{ name: 'X' }, ['body', 'url'], 'missing'],
    [{ name: 'X', url: 'ftp://mcp.example.com/' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'not a url' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://user:pw@mcp.example.com/mcp' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://mcp.example.com/mcp#frag' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'http://mcp.example.com/mcp' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://10.0.0.7/mcp' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://169.254.169.254/latest' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://[::1]/mcp' }, ['body', 'url'], 'value_error'],
    [{ name: 'X', url: 'https://mcp.example.com/mcp', agent_id: UNKNOWN }, ['body', 'agent_id'], 'value_error'],
    [{ name: 'X', url: 'https://mcp.example.com/mcp', agent_id: 'nope' }, ['body', 'agent_id'], 'uuid_parsing'],
    [
      { name: 'X', url: 'https://mcp.example.com/mcp', auth_config: { client_secret: 's' } },
      ['body', 'auth_config', 'client_id'],
      'value_error',
    ],
    [
      { name: 'X', url: 'https://mcp.example.com/mcp', auth_config: { header_name: 'x-key' } },
      ['body', 'auth_config', 'header_value'],
      'value_error',
    ],
    [
      { name: 'X', url: 'https://mcp.example.com/mcp', auth_config: { header_name: 'Host', header_value: 'v' } },
      ['body', 'auth_config', 'header_name'],
      'value_error',
    ],
  ])('rejects %j with a 422 at %j, writing nothing', async (payload, loc, type) => {
    const before = await countServers();
    const response = await post(servers(), payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, type }));
    expect(response.body).not.toMatch(/"s"|pw@/);
    expect(await countServers()).toBe(before);
  });

  it('rejects malformed ids in the path with 422, unknown ones with 404', async () => {
    const bad = await get('/api/v1/mcp/agents/nope/servers');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({ loc: ['path', 'agent_id'], type: 'uuid_parsing' });
    expect((await get(servers(UNKNOWN))).json()).toEqual({ detail: 'Agent not found' });
    const missing = await connect(UNKNOWN);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'MCP server not found' });
    expect((await get(`${servers()}/${UNKNOWN}/tools`)).statusCode).toBe(404);
  });

  it("keeps another organization out (404) and lets only the agent's creator or an admin manage it (403)", async () => {
    const server = await addServer({ url: publicServer.url });
    expect((await get(`${servers()}/${server.id}`, globex.headers)).json()).toEqual({ detail: 'Agent not found' });
    expect((await get(`${servers()}/${server.id}`, member.headers)).statusCode).toBe(200);
    for (const response of [
      await post(servers(), { name: 'X', url: publicServer.url }, member.headers),
      await connect(server.id, member.headers),
      await harness.app.inject({
        method: 'PUT',
        url: `${servers()}/${server.id}`,
        headers: member.headers,
        payload: { name: 'Y' },
      }),
      await harness.app.inject({ method: 'DELETE', url: `${servers()}/${server.id}`, headers: member.headers }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Access denied' });
    }
  });

  it('connects to a public server over Streamable HTTP: connected, no URL, its tools stored', async () => {
    const server = await addServer({ url: publicServer.url });
    const response = await connect(server.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'connected',
      message: 'Connected to public-test-server 1.2.3',
      authorization_url: null,
    });
    const stored = (await get(`${servers()}/${server.id}`)).json();
    expect(stored).toMatchObject({
      status: 'connected',
      connection_state: 'connected',
      transport: 'streamable_http',
      tools_count: 2,
      status_message: 'Connected to public-test-server 1.2.3',
      last_connected_at: expect.any(String),
      token_expires_at: null,
    });
    const tools = (await get(`${servers()}/${server.id}/tools`)).json();
    expect(tools).toEqual([
      {
        name: 'echo',
        title: 'Echo',
        description: 'Answers with its input',
        input_schema: expect.objectContaining({ type: 'object', properties: { text: { type: 'string' } } }),
      },
      expect.objectContaining({ name: 'add', title: null, description: 'Adds two numbers' }),
    ]);
    expect((await get(`${servers()}?status=connected`)).json().map((s: { id: string }) => s.id)).toContain(server.id);
    expect((await get(`${servers()}?status=error`)).json().map((s: { id: string }) => s.id)).not.toContain(server.id);
  });

  it('falls back to the legacy SSE transport for an SSE-only server', async () => {
    const server = await addServer({ url: sseServer.url });
    const response = await connect(server.id);
    expect(response.json()).toEqual({
      status: 'connected',
      message: 'Connected to sse-test-server 1.2.3',
      authorization_url: null,
    });
    expect((await get(`${servers()}/${server.id}`)).json()).toMatchObject({ transport: 'sse', tools_count: 2 });
  });

  it('sends a configured static header, which never shows in an answer', async () => {
    const server = await addServer({
      url: headerServer.url,
      auth_config: { header_name: 'x-test-key', header_value: 'header-secret-value' },
    });
    expect(server.auth_config).toEqual({ type: 'header', header_name: 'x-test-key' });
    const response = await connect(server.id);
    expect(response.json()).toMatchObject({ status: 'connected' });
    const wrong = await addServer({ url: headerServer.url, auth_config: { header_name: 'x-test-key', header_value: 'wrong' } });
    const refused = await connect(wrong.id);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({
      status: 'error',
      message: 'server rejected the configured header',
      authorization_url: null,
    });
    // A PUT that leaves the value out keeps the stored one.
    const renamed = await harness.app.inject({
      method: 'PUT',
      url: `${servers()}/${server.id}`,
      headers: acme.headers,
      payload: { name: 'Renamed', auth_config: { header_name: 'x-test-key' } },
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', status: 'connected' });
    expect((await connect(server.id)).json()).toMatchObject({ status: 'connected' });
    const everything = (await get(servers())).body + renamed.body + response.body;
    expect(everything).not.toContain('header-secret-value');
  });

  it('PUT is idempotent: resending the secret already set keeps the connection, the same PUT twice changes nothing', async () => {
    const auth = { header_name: 'x-test-key', header_value: 'header-secret-value' };
    const server = await addServer({ url: headerServer.url, auth_config: auth });
    expect((await connect(server.id)).json()).toMatchObject({ status: 'connected' });
    const put = (payload: object) =>
      harness.app.inject({ method: 'PUT', url: `${servers()}/${server.id}`, headers: acme.headers, payload });
    const sealed = async () =>
      (
        await harness.db
          .selectFrom('mcp_servers')
          .select('static_header_encrypted')
          .where('id', '=', server.id)
          .executeTakeFirstOrThrow()
      ).static_header_encrypted;
    const before = await sealed();
    const body = { name: 'Same', url: headerServer.url, auth_config: auth, health_check_url: null };
    const first = await put(body);
    expect(first.json()).toMatchObject({ name: 'Same', status: 'connected', tools_count: 2 });
    harness.clock.advance(1000);
    const second = await put(body);
    expect({ ...second.json(), updated_at: null }).toEqual({ ...first.json(), updated_at: null });
    expect(await sealed()).toBe(before);
    // A different secret is new credentials: the connection is forgotten.
    expect((await put({ auth_config: { ...auth, header_value: 'other' } })).json()).toMatchObject({ status: 'disconnected' });
  });

  it.each([
    ['a web page', () => htmlServer.url, 502, 'URL is not an MCP endpoint'],
    ['a server that wants auth but has no OAuth metadata', () => bareServer.url, 502, MESSAGE_NO_METADATA],
    ['nothing listening', () => 'http://127.0.0.1:9/mcp', 502, 'server unreachable'],
  ])('answers %s with status error and a specific message', async (_, url, httpStatus, message) => {
    const server = await addServer({ url: url() });
    const response = await connect(server.id);
    expect(response.statusCode).toBe(httpStatus);
    expect(response.json()).toEqual({ status: 'error', message, authorization_url: null });
    expect((await get(`${servers()}/${server.id}`)).json()).toMatchObject({
      status: 'error',
      connection_state: 'error',
      status_message: message,
    });
  });

  it('refuses an authorization server at a private address named by the metadata, without a socket to it', async () => {
    const protectedServer = await startProtectedMcpServer(as, { authorizationServer: 'https://10.255.255.1/' });
    closers.push(protectedServer.close);
    const server = await addServer({ url: protectedServer.url });
    const response = await connect(server.id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message: 'blocked by network policy', authorization_url: null });
  });

  it('answers the OAuth callback as JSON when no MCP_OAUTH_RETURN_URL is set', async () => {
    const protectedServer = await startProtectedMcpServer(as);
    closers.push(protectedServer.close);
    const server = await addServer({ url: protectedServer.url });
    const started = (await connect(server.id)).json();
    expect(started.status).toBe('auth_required');
    const redirect = await fetch(started.authorization_url, { redirect: 'manual' });
    const location = new URL(redirect.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('http://localhost:3000/api/v1/mcp/oauth/callback');
    const callback = await harness.app.inject({ url: location.pathname + location.search });
    expect(callback.statusCode).toBe(200);
    expect(callback.headers['cache-control']).toBe('no-store');
    expect(callback.json()).toEqual({
      status: 'connected',
      message: 'Connected to protected-test-server 1.2.3',
      agent_id: agentId,
      server_id: server.id,
    });
  });

  it('a new url disconnects the server and forgets its tools; a rename does not', async () => {
    const server = await addServer({ url: publicServer.url });
    await connect(server.id);
    const put = (payload: object) =>
      harness.app.inject({ method: 'PUT', url: `${servers()}/${server.id}`, headers: acme.headers, payload });
    expect((await put({ name: 'Renamed', is_enabled: false })).json()).toMatchObject({
      name: 'Renamed',
      is_enabled: false,
      status: 'connected',
      tools_count: 2,
    });
    const moved = await put({ url: sseServer.url });
    expect(moved.json()).toMatchObject({
      url: sseServer.url,
      status: 'disconnected',
      connection_state: 'disconnected',
      tools_count: 0,
    });
    expect((await get(`${servers()}/${server.id}/tools`)).json()).toEqual([]);
    const invalid = await put({ url: 'http://mcp.example.com/' });
    expect(invalid.statusCode).toBe(422);
  });

  const HEALTH_CHECK_REFUSED = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://x',
    'http://status.example.com/health',
    'https://user:pw@status.example.com/health',
    'https://10.0.0.7/health',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/health',
  ];

  it.each(HEALTH_CHECK_REFUSED)(
    'health_check_url %j is held to the outbound policy of url: 422, on create and update',
    async (value) => {
      const before = await countServers();
      const refused = await post(servers(), { name: 'X', url: 'https://mcp.example.com/mcp', health_check_url: value });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toEqual([
        expect.objectContaining({ loc: ['body', 'health_check_url'], type: 'value_error' }),
      ]);
      expect(await countServers()).toBe(before);
      const server = await addServer({
        url: 'https://mcp.example.com/mcp',
        health_check_url: 'https://status.example.com/health',
      });
      const update = await harness.app.inject({
        method: 'PUT',
        url: `${servers()}/${server.id}`,
        headers: acme.headers,
        payload: { health_check_url: value },
      });
      expect(update.statusCode).toBe(422);
      expect(update.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'health_check_url'], type: 'value_error' })]);
      expect((await get(`${servers()}/${server.id}`)).json().health_check_url).toBe('https://status.example.com/health');
    },
  );

  it('health_check_url names itself in the refusal; an allowlisted host may use plain http, like url', async () => {
    const refused = await post(servers(), {
      name: 'X',
      url: 'https://mcp.example.com/mcp',
      health_check_url: 'https://10.0.0.7/health',
    });
    expect(refused.json().detail[0].msg).toBe('Value error, health_check_url points to a private or reserved address');
    const allowlisted = await addServer({ url: publicServer.url, health_check_url: 'http://127.0.0.1:9/health' });
    expect(allowlisted.health_check_url).toBe('http://127.0.0.1:9/health');
  });

  it('removes a server: 200 success, 404 after, and the agent tools using it are disabled', async () => {
    const server = await addServer({ url: publicServer.url });
    const tool = await post(`/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: `mcp-${server.id}`,
      tool_type: 'mcp_server',
      mcp_server_id: server.id,
    });
    expect(tool.statusCode, tool.body).toBe(200);
    const remove = () => harness.app.inject({ method: 'DELETE', url: `${servers()}/${server.id}`, headers: acme.headers });
    const removed = await remove();
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ status: 'success', message: 'MCP server removed' });
    const again = await remove();
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'MCP server not found' });
    expect((await get(`${servers()}/${server.id}`)).statusCode).toBe(404);
    expect((await connect(server.id)).statusCode).toBe(404);
    expect((await get(servers())).json().map((s: { id: string }) => s.id)).not.toContain(server.id);
    expect((await get(`/api/v1/agents/${agentId}/tools/${tool.json().id}`)).json()).toMatchObject({ is_enabled: false });
  });

  it('pages by cursor in creation order, the next cursor in x-next-cursor, with the status filter', async () => {
    const agent = (await post('/api/v1/agents', { name: 'Paged bot' })).json().id;
    const created: { id: string; created_at: string }[] = [];
    for (let index = 0; index < 12; index++) {
      harness.clock.advance(index % 4 === 0 ? 1000 : 0);
      const server = await addServer({ name: `Server ${index}`, url: 'https://mcp.example.com/mcp' }, agent);
      created.push({ id: server.id, created_at: String(server.created_at) });
    }
    const ordered = created
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1))
      .map((row) => row.id);
    const connected = ordered.filter((_, index) => index % 2 === 0);
    await harness.db.updateTable('mcp_servers').set({ status: 'connected' }).where('id', 'in', connected).execute();
    const walk = async (query: string) => {
      const pages: string[][] = [];
      for (let cursor: string | undefined = ''; cursor !== undefined && pages.length < 20; ) {
        const response = await get(`${servers(agent)}?${query}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.statusCode, response.body).toBe(200);
        pages.push(response.json().map((server: { id: string }) => server.id));
        cursor = response.headers['x-next-cursor'] as string | undefined;
      }
      return pages;
    };
    expect(await walk('limit=5')).toEqual([ordered.slice(0, 5), ordered.slice(5, 10), ordered.slice(10)]);
    expect(await walk('limit=4&status=connected')).toEqual([connected.slice(0, 4), connected.slice(4)]);
    const cursor = (await get(`${servers(agent)}?limit=5`)).headers['x-next-cursor'];
    expect((await get(`${servers(agent)}?cursor=${cursor}`, globex.headers)).statusCode).toBe(404);
    expect((await get(`${servers(agent)}?cursor=%2A`)).json()).toEqual({
      detail: [{ loc: ['query', 'cursor'], msg: 'cursor is not a nextCursor this list returned', type: 'value_error' }],
    });
  });
});

const MESSAGE_NO_METADATA = 'server requires auth but advertises no OAuth metadata; configure a static token';

describe.each(DIALECTS)('the outbound network guard on %s (no OUTBOUND_ALLOWED_HOSTS)', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let agentId: string;
  let loopback: TestMcpServer;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    loopback = await startPublicMcpServer();
    agentId = (
      await harness.app.inject({ method: 'POST', url: '/api/v1/agents', headers: acme.headers, payload: { name: 'Bot' } })
    ).json().id;
  });
  afterAll(async () => {
    await harness?.close();
    await loopback?.close();
  });

  const servers = `/api/v1/mcp/agents/${'{agent}'}/servers`;
  const url = () => servers.replace('{agent}', agentId);

  it('does not accept a loopback or metadata address as a server URL', async () => {
    for (const address of [loopback.url, 'https://127.0.0.1/mcp', 'https://169.254.169.254/latest/meta-data']) {
      const response = await harness.app.inject({
        method: 'POST',
        url: url(),
        headers: acme.headers,
        payload: { name: 'X', url: address },
      });
      expect(response.statusCode, address).toBe(422);
    }
  });

  it('does not accept a loopback or metadata address as a health check URL either', async () => {
    for (const address of [loopback.url, 'https://127.0.0.1/health', 'https://169.254.169.254/latest/meta-data']) {
      const response = await harness.app.inject({
        method: 'POST',
        url: url(),
        headers: acme.headers,
        payload: { name: 'X', url: 'https://mcp.example.com/mcp', health_check_url: address },
      });
      expect(response.statusCode, address).toBe(422);
      expect(response.json().detail[0].loc, address).toEqual(['body', 'health_check_url']);
    }
  });

  it('refuses a name resolving to 127.0.0.1 at connect time: 400, and no socket reaches the server', async () => {
    const port = new URL(loopback.url).port;
    const created = await harness.app.inject({
      method: 'POST',
      url: url(),
      headers: acme.headers,
      payload: { name: 'Sneaky', url: `https://localhost:${port}/mcp` },
    });
    expect(created.statusCode).toBe(200);
    const before = loopback.connections();
    const response = await harness.app.inject({
      method: 'POST',
      url: `${url()}/${created.json().id}/connect`,
      headers: acme.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message: 'server URL not allowed', authorization_url: null });
    expect(loopback.connections()).toBe(before);
  });

  it('refuses a metadata address stored before the policy changed, at connect time', async () => {
    const created = await harness.app.inject({
      method: 'POST',
      url: url(),
      headers: acme.headers,
      payload: { name: 'Old', url: 'https://mcp.example.com/mcp' },
    });
    const id = created.json().id;
    await harness.db.updateTable('mcp_servers').set({ url: 'http://169.254.169.254/latest' }).where('id', '=', id).execute();
    const response = await harness.app.inject({ method: 'POST', url: `${url()}/${id}/connect`, headers: acme.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('server URL not allowed');
  });
});
