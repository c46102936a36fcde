import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type TestAuthorizationServer } from '../mcp/authorization-server.js';
import { startProtectedMcpServer, type TestMcpServer } from '../mcp/mcp-servers.js';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface Tool {
  id: string;
  tool_name: string;
  tool_type: string;
  is_enabled: boolean;
  require_approval: boolean;
  mcp_server_id: string | null;
  configuration: Record<string, unknown> | null;
}
interface Server {
  id: string;
  name: string;
  status: string;
  connection_state: string;
  status_message: string | null;
}

/** What a control's description reads (its hint and its error), as a screen reader reads it with the control. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

describe('AI agents: tools and MCP servers (Chromium, SQLite, the OAuth example MCP server)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let as: TestAuthorizationServer;
  let mcp: TestMcpServer;
  let lead: Agent;
  let agentId: string;

  beforeAll(async () => {
    as = await startAuthorizationServer();
    mcp = await startProtectedMcpServer(as);
    // Loopback MCP and authorization servers are reachable only because OUTBOUND_ALLOWED_HOSTS says so.
    [server, browser] = await Promise.all([startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }), launchChromium()]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
    agentId = (await server.call<{ id: string }>('POST', '/api/v1/agents', { name: 'Helper' })).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mcp?.close();
    await as?.close();
  });

  const tools = () => server.call<Tool[]>('GET', `/api/v1/agents/${agentId}/tools`);
  const servers = () => server.call<Server[]>('GET', `/api/v1/mcp/agents/${agentId}/servers`);
  const serverItem = (page: Page, name: string) =>
    page.getByRole('list', { name: 'MCP servers of the agent' }).getByRole('listitem', { name });

  it('gives an agent a built-in tool from the catalog and an external tool asking for approval, toggles and removes them', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto(`/app/agents/${agentId}`);
    await page.getByRole('heading', { name: 'Helper', level: 1 }).waitFor();
    await page.getByText('No tools yet: the agent can only talk.').waitFor();

    // The catalog, each tool with what it does.
    await page.getByText('Add a built-in tool').click();
    const kb = page.getByRole('radio', { name: 'Search knowledge base' });
    expect(await descriptionOf(kb)).toMatch(/^Searches the organization's published help-center articles/);
    await kb.check();
    await page.getByRole('button', { name: 'Add built-in tool' }).click();
    const given = page.getByRole('list', { name: 'Tools of the agent' });
    await given.getByRole('listitem', { name: 'Search knowledge base' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Search knowledge base' }).count()).toBe(0);
    expect(await tools()).toEqual([
      expect.objectContaining({
        tool_name: 'search_knowledge_base',
        tool_type: 'built_in',
        is_enabled: true,
        require_approval: false,
      }),
    ]);

    // An external tool: a schema that is not JSON is refused beside its field, nothing written.
    await page.getByText('Add an external tool').click();
    const form = page.getByRole('form', { name: 'New external tool' });
    await form.getByLabel('Tool name').fill('lookup_order');
    await form.getByLabel('URL').fill('https://orders.example.test/lookup');
    await form.getByLabel('Method').selectOption('GET');
    await form.getByLabel('What it does').fill('Finds an order by number');
    const schema = form.getByLabel('Arguments (JSON Schema)');
    await schema.fill('{"type": "object", "properties": {"number": ');
    await form.getByLabel('Ask a person before each call').check();
    await form.getByRole('button', { name: 'Add external tool' }).click();
    await expect.poll(() => schema.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(schema)).toMatch(/Not JSON/);
    expect(await tools()).toHaveLength(1);

    const parameters = { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] };
    await schema.fill(JSON.stringify(parameters));
    await form.getByRole('button', { name: 'Add external tool' }).click();
    await given.getByRole('listitem', { name: 'lookup_order' }).getByText('Asks for approval').waitFor();
    const external = (await tools()).find((tool) => tool.tool_name === 'lookup_order');
    expect(external).toMatchObject({
      tool_type: 'external_tool',
      require_approval: true,
      configuration: {
        url: 'https://orders.example.test/lookup',
        method: 'GET',
        description: 'Finds an order by number',
        parameters,
      },
    });
    expect(await form.getByLabel('Tool name').inputValue()).toBe('');

    // The same name again: the API's refusal beside the name, what was typed kept.
    await form.getByLabel('Tool name').fill('lookup_order');
    await form.getByLabel('URL').fill('https://orders.example.test/other');
    await form.getByRole('button', { name: 'Add external tool' }).click();
    const name = form.getByLabel('Tool name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(name)).toContain("Tool 'lookup_order' already exists for this agent");
    expect(await form.getByLabel('URL').inputValue()).toBe('https://orders.example.test/other');
    expect(await tools()).toHaveLength(2);

    // Disabled, then removed.
    await page.getByRole('checkbox', { name: 'lookup_order enabled' }).uncheck();
    await expect.poll(async () => (await tools()).find((tool) => tool.tool_name === 'lookup_order')?.is_enabled).toBe(false);
    await page.getByRole('button', { name: 'Remove lookup_order' }).click();
    await given.getByRole('listitem', { name: 'lookup_order' }).waitFor({ state: 'detached' });
    expect((await tools()).map((tool) => tool.tool_name)).toEqual(['search_knowledge_base']);

    expect(await accessibilityProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('connects the OAuth MCP server through its window, lists its tools, reports a cancelled and a refused authorization, and disconnects', {
    timeout: 90_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page, context } = session;
    await page.goto(`/app/agents/${agentId}`);
    await page.getByRole('heading', { name: 'Helper', level: 1 }).waitFor();

    // A URL the outbound policy refuses is shown beside the field; nothing is written.
    const toolsBefore = (await tools()).length;
    await page.getByText('Add an MCP server').click();
    const form = page.getByRole('form', { name: 'New MCP server' });
    await form.getByLabel('Server name').fill('Docs');
    const url = form.getByLabel('Server URL');
    await url.fill('http://198.51.100.7/mcp');
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(url)).toMatch(/\S/);
    expect(await servers()).toEqual([]);
    expect(await tools()).toHaveLength(toolsBefore);

    await url.fill(mcp.url);
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    const docs = serverItem(page, 'Docs');
    await docs.getByText('Not connected').waitFor();
    const [docsServer] = await servers();
    expect((await tools()).find((tool) => tool.tool_type === 'mcp_server')).toMatchObject({
      tool_name: 'Docs',
      mcp_server_id: docsServer?.id,
      is_enabled: true,
    });

    // Connect: the authorization window opens, the callback comes back to the console's page, which closes it.
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      docs.getByRole('button', { name: 'Connect', exact: true }).click(),
    ]);
    await popup.waitForEvent('close');
    await docs.getByRole('status').filter({ hasText: 'Connected: 2 tools found.' }).waitFor();
    const docsTools = page.getByRole('list', { name: 'Tools of Docs' });
    await docsTools.getByText('echo', { exact: true }).waitFor();
    await docsTools.getByText('add', { exact: true }).waitFor();
    await docs.getByText('Connected', { exact: true }).waitFor();
    expect(await docs.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    expect((await servers())[0]).toMatchObject({ status: 'connected', connection_state: 'connected' });
    expect(await accessibilityProblems(page)).toEqual([]);

    // A second server whose window is closed before it finishes: cancelled, and still disconnected.
    await form.getByLabel('Server name').fill('Wiki');
    await form.getByLabel('Server URL').fill(mcp.url);
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    const wiki = serverItem(page, 'Wiki');
    await context.route(`${as.url}authorize*`, (route) => route.fulfill({ status: 200, body: 'Sign in to authorize' }));
    const [cancelled] = await Promise.all([
      page.waitForEvent('popup'),
      wiki.getByRole('button', { name: 'Connect', exact: true }).click(),
    ]);
    await cancelled.getByText('Sign in to authorize').waitFor();
    await cancelled.close();
    await wiki
      .getByRole('alert')
      .filter({
        hasText: 'Authorization was cancelled: its window was closed before it finished. The server stays disconnected.',
      })
      .waitFor();
    const wikiServer = () => servers().then((all) => all.find((item) => item.name === 'Wiki'));
    expect((await wikiServer())?.status).toBe('disconnected');

    // The person refuses at the authorization server: the callback says error, and the page says why.
    await context.unroute(`${as.url}authorize*`);
    await context.route(`${as.url}authorize*`, (route) => {
      const state = new URL(route.request().url()).searchParams.get('state') ?? '';
      return route.fulfill({
        status: 302,
        headers: { location: `${server.origin}/api/v1/mcp/oauth/callback?error=access_denied&state=${state}` },
      });
    });
    const [refused] = await Promise.all([
      page.waitForEvent('popup'),
      wiki.getByRole('button', { name: 'Connect', exact: true }).click(),
    ]);
    await refused.waitForEvent('close');
    const stored = await until(async () => {
      const found = await wikiServer();
      return found?.status_message ? found : undefined;
    }, 'the refused authorization stored');
    expect(stored.status).not.toBe('connected');
    await wiki
      .getByRole('alert')
      .filter({ hasText: `Authorization failed: ${stored.status_message}` })
      .waitFor();
    await context.unroute(`${as.url}authorize*`);

    // Disconnect (endpoint 16): the server and the agent tool that offered it are gone.
    await docs.getByRole('button', { name: 'Disconnect' }).click();
    await docs.waitFor({ state: 'detached' });
    expect((await servers()).map((item) => item.name)).toEqual(['Wiki']);
    const mcpTools = (await tools()).filter((tool) => tool.tool_type === 'mcp_server');
    expect(mcpTools.map((tool) => tool.tool_name)).toEqual(['Wiki']);

    // Dark, then phone width.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await wiki.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await context.close();
  });
});
