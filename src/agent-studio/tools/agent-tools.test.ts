import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

type Headers = { 'x-api-key': string };
const UNKNOWN_UUID = '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c';
const CONNECTION_ID = '9b2e7c1a-4f3d-4e2b-8a1c-6d5e4f3a2b1c';

describe.each(DIALECTS)('agent tools on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let agentId: string;
  let otherAgentId: string;

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = acme.headers, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const createAgent = async (headers: Headers = acme.headers) =>
    (await request('POST', '/agents', headers, { name: 'Agent' })).json().id as string;
  const createTool = (payload: object, agent = agentId, headers: Headers = acme.headers) =>
    request('POST', `/agents/${agent}/tools`, headers, { agent_id: agent, ...payload });
  const toolCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('agent_tools')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** An MCP server row as the MCP-server routes would write it. */
  const makeMcpServer = async (agent: string, options: { deleted?: boolean } = {}) => {
    const id = harness.ids.uuid();
    const at = harness.clock.now().toISOString();
    await harness.db
      .insertInto('mcp_servers')
      .values({
        id,
        organization_id: acme.organizationId,
        agent_id: agent,
        created_by_id: acme.userId,
        name: 'Docs',
        url: 'https://mcp.example.com/mcp',
        auth_type: 'none',
        auth_config: null,
        client_secret_encrypted: null,
        static_header_encrypted: null,
        tool_discovery_endpoint: null,
        health_check_url: null,
        transport: null,
        status: 'disconnected',
        connection_state: 'disconnected',
        status_message: null,
        is_enabled: true,
        discovered_tools: null,
        last_connected_at: null,
        connected_by_user_id: null,
        last_health_check: null,
        token_expires_at: null,
        created_at: at,
        updated_at: at,
        deleted_at: options.deleted ? at : null,
      })
      .execute();
    return id;
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    mia = await makeUser(harness, acme.organizationId);
    agentId = await createAgent();
    otherAgentId = await createAgent();
  });
  afterAll(() => harness.close());

  it('publishes the built-in catalog with a JSON Schema per configuration', async () => {
    const response = await request('GET', '/tools/built-in');
    expect(response.statusCode).toBe(200);
    const tools = response.json() as {
      tool_name: string;
      tool_type: string;
      configuration_schema: { type: string; properties: object };
    }[];
    expect(tools.map((tool) => tool.tool_name)).toEqual([
      'search_knowledge_base',
      'get_ticket',
      'search_tickets',
      'create_ticket',
      'add_internal_note',
      'reply_to_customer',
      'lookup_contact',
      'handoff_to_human',
      // Older names, kept for the agent tools stored under them.
      'knowledge_base_search',
      'ticket_lookup',
      'create_ticket_comment',
    ]);
    for (const tool of tools) {
      expect(tool).toMatchObject({ tool_type: 'built_in', description: expect.any(String), display_name: expect.any(String) });
      expect(tool.configuration_schema).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(tools[0]?.configuration_schema.properties).toMatchObject({
      max_results: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      include_metadata: { type: 'boolean', default: false },
    });
  });

  it('creates a built-in tool (endpoint 14): 200 and exactly the contract’s tool object', async () => {
    const response = await createTool({
      tool_name: 'knowledge_base_search',
      tool_type: 'built_in',
      configuration: { include_metadata: true, max_results: 10 },
    });
    expect(response.statusCode).toBe(200);
    const tool = response.json();
    expect(tool).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agent_id: agentId,
      tool_name: 'knowledge_base_search',
      tool_type: 'built_in',
      configuration: { include_metadata: true, max_results: 10 },
      is_enabled: true,
      mcp_server_id: null,
      external_tool_connection_id: null,
      require_approval: false,
      customer_facing: false,
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
    });
    expect((await request('GET', `/agents/${agentId}/tools/${tool.id}`)).json()).toEqual(tool);
  });

  it('fills a built-in’s configuration defaults; null or absent counts as {}', async () => {
    const agent = await createAgent();
    const absent = (await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in', is_enabled: false }, agent)).json();
    expect(absent).toMatchObject({
      configuration: { include_comments: true, max_comments: 10, include_private_comments: false },
      is_enabled: false,
    });
    const nulled = (
      await createTool({ tool_name: 'create_ticket_comment', tool_type: 'built_in', configuration: null }, agent)
    ).json();
    expect(nulled.configuration).toEqual({ comment_visibility: 'private', should_send_email: false });
  });

  const missing = (field: string) => ({ loc: ['body', field], msg: 'Field required', type: 'missing' });
  const valueError = (field: string, msg: string) => ({ loc: ['body', field], msg: `Value error, ${msg}`, type: 'value_error' });

  it.each([
    ['no fields at all', {}, [missing('agent_id'), missing('tool_name'), missing('tool_type')]],
    ['no agent_id', { tool_name: 'knowledge_base_search', tool_type: 'built_in' }, [missing('agent_id')]],
    ['no tool_name', { agent_id: 'PATH', tool_type: 'built_in' }, [missing('tool_name')]],
    ['no tool_type', { agent_id: 'PATH', tool_name: 'knowledge_base_search' }, [missing('tool_type')]],
    [
      'a wrong tool_type',
      { agent_id: 'PATH', tool_name: 'x', tool_type: 'plugin' },
      [{ loc: ['body', 'tool_type'], msg: "Input should be 'built_in', 'mcp_server' or 'external_tool'", type: 'enum' }],
    ],
    [
      'a malformed body agent_id',
      { agent_id: 'nope', tool_name: 'x', tool_type: 'built_in' },
      [{ loc: ['body', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    ],
    [
      'a body agent_id other than the path’s',
      { agent_id: UNKNOWN_UUID, tool_name: 'knowledge_base_search', tool_type: 'built_in' },
      [valueError('agent_id', 'agent_id must equal the agent_id in the path')],
    ],
    [
      'a malformed mcp_server_id',
      { agent_id: 'PATH', tool_name: 'x', tool_type: 'mcp_server', mcp_server_id: '42' },
      [{ loc: ['body', 'mcp_server_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    ],
    [
      'an empty tool_name',
      { agent_id: 'PATH', tool_name: '', tool_type: 'built_in' },
      [{ loc: ['body', 'tool_name'], msg: 'String should have at least 1 character', type: 'string_too_short' }],
    ],
    [
      'a non-boolean is_enabled',
      { agent_id: 'PATH', tool_name: 'knowledge_base_search', tool_type: 'built_in', is_enabled: 'yes' },
      [{ loc: ['body', 'is_enabled'], msg: 'Input should be a valid boolean', type: 'bool_type' }],
    ],
    [
      'a built-in name not in the catalog',
      { agent_id: 'PATH', tool_name: 'web_browse', tool_type: 'built_in' },
      [valueError('tool_name', "'web_browse' is not a built-in tool; see GET /api/v1/tools/built-in")],
    ],
    [
      'a built-in configuration the schema refuses',
      {
        agent_id: 'PATH',
        tool_name: 'knowledge_base_search',
        tool_type: 'built_in',
        configuration: { max_results: 0, colour: 'red' },
      },
      [
        { loc: ['body', 'configuration', 'colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
        {
          loc: ['body', 'configuration', 'max_results'],
          msg: 'Input should be greater than or equal to 1',
          type: 'greater_than_equal',
        },
      ],
    ],
    [
      'a built-in with an mcp_server_id',
      { agent_id: 'PATH', tool_name: 'knowledge_base_search', tool_type: 'built_in', mcp_server_id: UNKNOWN_UUID },
      [valueError('mcp_server_id', 'mcp_server_id is only allowed when tool_type is mcp_server')],
    ],
    [
      'an mcp_server tool without mcp_server_id',
      { agent_id: 'PATH', tool_name: 'docs', tool_type: 'mcp_server' },
      [valueError('mcp_server_id', 'mcp_server_id is required when tool_type is mcp_server')],
    ],
    [
      'an mcp_server tool naming no MCP server',
      { agent_id: 'PATH', tool_name: 'docs', tool_type: 'mcp_server', mcp_server_id: UNKNOWN_UUID },
      [valueError('mcp_server_id', 'mcp_server_id must name an MCP server of this agent')],
    ],
    [
      'an external tool without external_tool_connection_id',
      { agent_id: 'PATH', tool_name: 'crm', tool_type: 'external_tool' },
      [valueError('external_tool_connection_id', 'external_tool_connection_id is required when tool_type is external_tool')],
    ],
    [
      'an external tool with an mcp_server_id',
      {
        agent_id: 'PATH',
        tool_name: 'crm',
        tool_type: 'external_tool',
        external_tool_connection_id: CONNECTION_ID,
        mcp_server_id: UNKNOWN_UUID,
      },
      [valueError('mcp_server_id', 'mcp_server_id is only allowed when tool_type is mcp_server')],
    ],
    [
      'an mcp_server tool with an external_tool_connection_id',
      {
        agent_id: 'PATH',
        tool_name: 'docs',
        tool_type: 'mcp_server',
        mcp_server_id: UNKNOWN_UUID,
        external_tool_connection_id: CONNECTION_ID,
      },
      [
        valueError('mcp_server_id', 'mcp_server_id must name an MCP server of this agent'),
        valueError('external_tool_connection_id', 'external_tool_connection_id is only allowed when tool_type is external_tool'),
      ],
    ],
  ])('422 for %s, naming the field, writing nothing', async (_case, body, detail) => {
    const before = await toolCount();
    const payload = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value === 'PATH' ? agentId : value]));
    const response = await request('POST', `/agents/${agentId}/tools`, acme.headers, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual(expect.arrayContaining(detail));
    expect(response.json().detail).toHaveLength(detail.length);
    expect(await toolCount()).toBe(before);
  });

  it('an mcp_server tool needs a live MCP server of this very agent', async () => {
    const agent = await createAgent();
    const own = await makeMcpServer(agent);
    const ofOtherAgent = await makeMcpServer(otherAgentId);
    const removed = await makeMcpServer(agent, { deleted: true });
    for (const serverId of [ofOtherAgent, removed]) {
      const response = await createTool({ tool_name: 'docs', tool_type: 'mcp_server', mcp_server_id: serverId }, agent);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [valueError('mcp_server_id', 'mcp_server_id must name an MCP server of this agent')],
      });
    }
    const response = await createTool(
      { tool_name: 'docs', tool_type: 'mcp_server', mcp_server_id: own, configuration: { allowed: ['search'] } },
      agent,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      tool_type: 'mcp_server',
      mcp_server_id: own,
      configuration: { allowed: ['search'] },
    });
  });

  it('an external tool keeps its connection id and any configuration', async () => {
    const response = await createTool({
      tool_name: 'crm_lookup',
      tool_type: 'external_tool',
      external_tool_connection_id: CONNECTION_ID,
      configuration: { endpoint: 'contacts' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      external_tool_connection_id: CONNECTION_ID,
      mcp_server_id: null,
      configuration: { endpoint: 'contacts' },
    });
  });

  it('require_approval: false unless asked, set on create, changed by an update, a boolean only', async () => {
    const agent = await createAgent();
    const created = (
      await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in', require_approval: true }, agent)
    ).json();
    expect(created.require_approval).toBe(true);
    const put = (payload: object) => request('PUT', `/agents/${agent}/tools/${created.id}`, acme.headers, payload);
    expect((await put({ is_enabled: false })).json().require_approval).toBe(true);
    expect((await put({ require_approval: false })).json().require_approval).toBe(false);
    const bad = await put({ require_approval: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'require_approval']);
    expect((await request('GET', `/agents/${agent}/tools/${created.id}`)).json().require_approval).toBe(false);
  });

  it('customer_facing: false unless an admin marks it; a member can neither mark nor change a marked tool', async () => {
    const agent = await createAgent();
    const body = { tool_name: 'lookup', tool_type: 'external_tool', external_tool_connection_id: CONNECTION_ID };
    const created = (await createTool(body, agent)).json();
    expect(created.customer_facing).toBe(false);
    const put = (payload: object, headers = acme.headers) =>
      request('PUT', `/agents/${agent}/tools/${created.id}`, headers, payload);
    expect((await put({ customer_facing: true })).json().customer_facing).toBe(true);
    const bad = await put({ customer_facing: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'customer_facing']);
    for (const payload of [{ customer_facing: false }, { configuration: { endpoint: 'elsewhere' } }]) {
      const refused = await put(payload, mia.headers);
      expect(refused.statusCode, refused.body).toBe(403);
    }
    const byMember = await createTool({ ...body, tool_name: 'other', customer_facing: true }, agent, mia.headers);
    expect(byMember.statusCode, byMember.body).toBe(403);
    expect((await request('GET', `/agents/${agent}/tools/${created.id}`)).json()).toMatchObject({
      customer_facing: true,
      configuration: null,
    });
  });

  it('tool_name is unique per agent (409), free on another agent', async () => {
    const agent = await createAgent();
    const body = { tool_name: 'ticket_lookup', tool_type: 'built_in' };
    expect((await createTool(body, agent)).statusCode).toBe(200);
    const before = await toolCount();
    const clash = await createTool(body, agent);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ detail: "Tool 'ticket_lookup' already exists for this agent" });
    expect(await toolCount()).toBe(before);
    expect((await createTool(body, await createAgent())).statusCode).toBe(200);
  });

  it('concurrent creates of one tool_name: exactly one wins, the others are 409', async () => {
    const agent = await createAgent();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        createTool({ tool_name: 'same', tool_type: 'external_tool', external_tool_connection_id: CONNECTION_ID }, agent),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await request('GET', `/agents/${agent}/tools`)).json()).toHaveLength(1);
  });

  it('lists an agent’s tools in creation order, filtered by tool_type and is_enabled', async () => {
    const agent = await createAgent();
    const server = await makeMcpServer(agent);
    const names = ['knowledge_base_search', 'ticket_lookup'];
    for (const name of names) {
      await createTool({ tool_name: name, tool_type: 'built_in', is_enabled: name === 'ticket_lookup' }, agent);
      harness.clock.advance(10);
    }
    await createTool({ tool_name: 'docs', tool_type: 'mcp_server', mcp_server_id: server }, agent);
    const list = async (query = '') =>
      ((await request('GET', `/agents/${agent}/tools${query}`)).json() as { tool_name: string }[]).map((tool) => tool.tool_name);
    expect(await list()).toEqual(['knowledge_base_search', 'ticket_lookup', 'docs']);
    expect(await list('?tool_type=built_in')).toEqual(['knowledge_base_search', 'ticket_lookup']);
    expect(await list('?is_enabled=true')).toEqual(['ticket_lookup', 'docs']);
    expect(await list('?is_enabled=false&tool_type=built_in')).toEqual(['knowledge_base_search']);
    const bad = await request('GET', `/agents/${agent}/tools?tool_type=robot&is_enabled=maybe`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail.map((entry: { loc: string[] }) => entry.loc)).toEqual([
      ['query', 'tool_type'],
      ['query', 'is_enabled'],
    ]);
  });

  it('updates a tool and checks the result like a new one', async () => {
    const agent = await createAgent();
    const tool = (await createTool({ tool_name: 'knowledge_base_search', tool_type: 'built_in' }, agent)).json();
    await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in' }, agent);
    const put = (payload: object) => request('PUT', `/agents/${agent}/tools/${tool.id}`, acme.headers, payload);
    harness.clock.advance(5000);
    const updated = await put({ configuration: { max_results: 20 }, is_enabled: false });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({
      ...tool,
      configuration: { max_results: 20, include_metadata: false },
      is_enabled: false,
      updated_at: harness.clock.now().toISOString(),
    });
    const badConfig = await put({ configuration: { max_results: 'many' } });
    expect(badConfig.statusCode).toBe(422);
    expect(badConfig.json()).toEqual({
      detail: [{ loc: ['body', 'configuration', 'max_results'], msg: 'Input should be a valid integer', type: 'int_type' }],
    });
    // Renaming a built-in makes it another tool: its configuration is checked against that tool's schema.
    expect((await put({ tool_name: 'ticket_lookup' })).json().detail[0]).toMatchObject({
      loc: ['body', 'configuration', 'max_results'],
    });
    const clash = await put({ tool_name: 'ticket_lookup', configuration: {} });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ detail: "Tool 'ticket_lookup' already exists for this agent" });
    const toExternal = await put({ tool_type: 'external_tool' });
    expect(toExternal.json()).toEqual({
      detail: [
        valueError('external_tool_connection_id', 'external_tool_connection_id is required when tool_type is external_tool'),
      ],
    });
    const external = await put({
      tool_type: 'external_tool',
      tool_name: 'crm',
      external_tool_connection_id: CONNECTION_ID,
      configuration: null,
    });
    expect(external.statusCode).toBe(200);
    expect(external.json()).toMatchObject({ tool_type: 'external_tool', tool_name: 'crm', configuration: null });
  });

  it('a tool whose MCP server was removed stays editable while disabled but cannot be re-enabled', async () => {
    const agent = await createAgent();
    const server = await makeMcpServer(agent);
    const tool = (await createTool({ tool_name: 'docs', tool_type: 'mcp_server', mcp_server_id: server }, agent)).json();
    // What removing the server does (endpoint 16): soft-delete it and disable its tools.
    await harness.db.updateTable('mcp_servers').set({ deleted_at: TEST_NOW }).where('id', '=', server).execute();
    await harness.db.updateTable('agent_tools').set({ is_enabled: false }).where('id', '=', tool.id).execute();
    const put = (payload: object) => request('PUT', `/agents/${agent}/tools/${tool.id}`, acme.headers, payload);
    expect((await put({ configuration: { note: 'kept' } })).statusCode).toBe(200);
    const enable = await put({ is_enabled: true });
    expect(enable.statusCode).toBe(422);
    expect(enable.json()).toEqual({
      detail: [valueError('mcp_server_id', 'mcp_server_id must name an MCP server of this agent')],
    });
    const replacement = await makeMcpServer(agent);
    expect((await put({ is_enabled: true, mcp_server_id: replacement })).json()).toMatchObject({
      is_enabled: true,
      mcp_server_id: replacement,
    });
  });

  it('deletes a tool: {status, message}, then 404 Tool not found', async () => {
    const tool = (await createTool({ tool_name: 'create_ticket_comment', tool_type: 'built_in' })).json();
    const response = await request('DELETE', `/agents/${agentId}/tools/${tool.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: 'Tool deleted successfully' });
    for (const method of ['GET', 'DELETE'] as const) {
      const gone = await request(method, `/agents/${agentId}/tools/${tool.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ detail: 'Tool not found' });
    }
    expect((await request('PUT', `/agents/${agentId}/tools/${tool.id}`, acme.headers, { is_enabled: true })).statusCode).toBe(
      404,
    );
  });

  it('a tool is reached through its own agent only', async () => {
    const tool = (
      await createTool({ tool_name: 'external', tool_type: 'external_tool', external_tool_connection_id: CONNECTION_ID })
    ).json();
    const response = await request('GET', `/agents/${otherAgentId}/tools/${tool.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Tool not found' });
  });

  it('members read the tools; only an admin changes them, even on an agent the member made (403 Access denied)', async () => {
    const miasAgent = await createAgent();
    // Made by a member while members still could: that does not make its tools theirs to change.
    await harness.db.updateTable('agents').set({ created_by_id: mia.userId }).where('id', '=', miasAgent).execute();
    const tool = (await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in' }, miasAgent)).json();
    expect((await request('PUT', `/agents/${miasAgent}/tools/${tool.id}`, acme.headers, { is_enabled: false })).statusCode).toBe(
      200,
    );
    const noah = await makeUser(harness, acme.organizationId);
    for (const member of [mia, noah]) {
      const attempts = [
        request('POST', `/agents/${miasAgent}/tools`, member.headers, {
          agent_id: miasAgent,
          tool_name: 'knowledge_base_search',
          tool_type: 'built_in',
        }),
        request('PUT', `/agents/${miasAgent}/tools/${tool.id}`, member.headers, { is_enabled: true }),
        request('DELETE', `/agents/${miasAgent}/tools/${tool.id}`, member.headers),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ detail: 'Access denied' });
      }
    }
    expect((await request('GET', `/agents/${miasAgent}/tools`, noah.headers)).json()).toHaveLength(1);
    expect((await request('GET', `/agents/${miasAgent}/tools/${tool.id}`, noah.headers)).statusCode).toBe(200);
  });

  it('another organization’s agent, a deleted agent and an unknown one are 404 Agent not found', async () => {
    const foreign = await createAgent(globex.headers);
    const foreignTool = (await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in' }, foreign, globex.headers)).json();
    const deleted = await createAgent();
    await request('DELETE', `/agents/${deleted}`);
    for (const agent of [foreign, deleted, UNKNOWN_UUID]) {
      const attempts = [
        createTool({ tool_name: 'knowledge_base_search', tool_type: 'built_in' }, agent),
        request('GET', `/agents/${agent}/tools`),
        request('GET', `/agents/${agent}/tools/${foreignTool.id}`),
        request('PUT', `/agents/${agent}/tools/${foreignTool.id}`, acme.headers, { is_enabled: false }),
        request('DELETE', `/agents/${agent}/tools/${foreignTool.id}`),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'Agent not found' });
      }
    }
    expect((await request('GET', `/agents/${foreign}/tools/${foreignTool.id}`, globex.headers)).json().is_enabled).toBe(true);
  });

  it('malformed ids in the path are 422s located in the path', async () => {
    const response = await request('GET', `/agents/${agentId}/tools/not-a-uuid`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ loc: ['path', 'tool_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    });
    const post = await request('POST', '/agents/xyz/tools', acme.headers, {
      agent_id: 'xyz',
      tool_name: 'a',
      tool_type: 'built_in',
    });
    expect(post.statusCode).toBe(422);
    expect(post.json().detail).toContainEqual({
      loc: ['path', 'agent_id'],
      msg: 'Input should be a valid UUID',
      type: 'uuid_parsing',
    });
  });

  it('pages by cursor in creation order, the next cursor in x-next-cursor; filters combine; each tool once', async () => {
    const owner = await makeOrganization(harness);
    const agent = await createAgent(owner.headers);
    const tools: { id: string; tool_name: string; tool_type: string; is_enabled: boolean; created_at: string }[] = [];
    const builtIn = ['knowledge_base_search', 'ticket_lookup', 'create_ticket_comment'];
    for (let index = 0; index < 25; index++) {
      harness.clock.advance(index % 5 === 0 ? 1000 : 0);
      const payload =
        index < builtIn.length
          ? { tool_name: builtIn[index], tool_type: 'built_in' }
          : { tool_name: `external_${index}`, tool_type: 'external_tool', external_tool_connection_id: CONNECTION_ID };
      const response = await createTool({ ...payload, is_enabled: index % 2 === 0 }, agent, owner.headers);
      expect(response.statusCode, response.body).toBe(200);
      tools.push(response.json());
    }
    const ordered = tools.sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1));
    const walk = async (query: string) => {
      const pages: string[][] = [];
      for (let cursor: string | undefined = ''; cursor !== undefined && pages.length < 20; ) {
        const response = await request(
          'GET',
          `/agents/${agent}/tools?${query}${cursor ? `&cursor=${cursor}` : ''}`,
          owner.headers,
        );
        expect(response.statusCode, response.body).toBe(200);
        pages.push(response.json().map((tool: { tool_name: string }) => tool.tool_name));
        cursor = response.headers['x-next-cursor'] as string | undefined;
      }
      return pages;
    };
    const pages = await walk('limit=10');
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(ordered.map((tool) => tool.tool_name));
    const filtered = await walk('limit=4&tool_type=external_tool&is_enabled=false');
    const expected = ordered
      .filter((tool) => tool.tool_type === 'external_tool' && !tool.is_enabled)
      .map((tool) => tool.tool_name);
    expect(expected.length).toBe(11);
    expect(filtered.map((page) => page.length)).toEqual([4, 4, 3]);
    expect(filtered.flat()).toEqual(expected);

    const cursor = (await request('GET', `/agents/${agent}/tools?limit=10`, owner.headers)).headers['x-next-cursor'];
    const theirAgent = await createAgent(globex.headers);
    expect((await createTool({ tool_name: 'ticket_lookup', tool_type: 'built_in' }, theirAgent, globex.headers)).statusCode).toBe(
      200,
    );
    const foreign = (await request('GET', `/agents/${theirAgent}/tools?cursor=${cursor}`, globex.headers)).json();
    expect(foreign.every((tool: { agent_id: string }) => tool.agent_id === theirAgent)).toBe(true);
    expect((await request('GET', `/agents/${agent}/tools?cursor=${cursor}`, globex.headers)).statusCode).toBe(404);
    expect((await request('GET', `/agents/${agent}/tools?cursor=%2A`, owner.headers)).json()).toEqual({
      detail: [{ loc: ['query', 'cursor'], msg: 'cursor is not a nextCursor this list returned', type: 'value_error' }],
    });
  });
});
