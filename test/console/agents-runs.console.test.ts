import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type TestModelServer } from '../model-server.js';
import { type Agent, apiKeyOf, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface Run {
  id: string;
  status: string;
  total_tokens: number;
  tool_calls: { tool_name: string; arguments: unknown; result: unknown }[];
}

describe("AI agents: an agent's runs, its usage, and the chat history (Chromium, SQLite, a loopback model)", () => {
  let server: ConsoleServer;
  let browser: Browser;
  let model: TestModelServer;
  let lead: Agent;
  let leadKey: string;
  let agentId: string;

  /** The agent-studio API with the lead's own key: the chats are the lead's. */
  async function asLead<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${server.origin}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': leadKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text) as T;
  }

  /** A thread of the lead's with the agent, and a message the agent answers as the model is scripted to. */
  async function chat(title: string, message: string) {
    const thread = await asLead<{ id: string }>('POST', `/chat/${agentId}/threads`, { title });
    await asLead('POST', `/chat/${agentId}/threads/${thread.id}/messages`, { role: 'user', content: message });
    return thread.id;
  }

  beforeAll(async () => {
    model = await startModelServer();
    [server, browser] = await Promise.all([
      startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: new URL(model.baseUrl).host }),
      launchChromium(),
    ]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
    leadKey = await apiKeyOf(server, lead);
    const provider = await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-runs',
      default_model: 'small-1',
      model_prices: { 'small-1': { input_per_million_tokens: 1000, output_per_million_tokens: 2000 } },
    });
    const agent = await server.call<{ id: string }>('POST', '/api/v1/agents', {
      name: 'Desk helper',
      configuration: { model_provider_id: provider.id, monthly_token_budget: 50_000 },
    });
    agentId = agent.id;
    await server.call('POST', `/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: 'search_tickets',
      tool_type: 'built_in',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  it('lists the runs made through the API, filters them by status, and shows a run with its tool call, tokens, cost and error', {
    timeout: 90_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;

    // Before any run: the page says how runs start.
    await page.goto(`/app/agents/${agentId}/runs`);
    await page.getByRole('heading', { name: 'No runs yet' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // A run that calls a tool, then answers; and one the provider refuses.
    model.script(
      {
        toolCalls: [{ name: 'search_tickets', arguments: { query: 'printer' } }],
        usage: { prompt_tokens: 300, completion_tokens: 20 },
      },
      { text: 'No printer tickets are open.', usage: { prompt_tokens: 400, completion_tokens: 30 } },
    );
    await chat('Printer trouble', 'Are there open printer tickets?');
    model.script({ kind: 'error', status: 401, message: 'Invalid API key' });
    await chat('Billing', 'Where is my invoice for March?');
    const runs = await asLead<Run[]>('GET', `/agents/${agentId}/runs`);
    expect(runs.map((run) => run.status)).toEqual(['failed', 'succeeded']);
    const succeeded = runs[1] as Run;
    expect(succeeded.total_tokens).toBe(750);

    // The agent's page: the month's usage against the budget, and the way to its runs.
    await page.goto(`/app/agents/${agentId}`);
    await page.getByText('750 of 50,000 tokens (1%)').waitFor();
    await page.getByRole('img', { name: 'Share of the month’s budget used: 750 of 50,000 tokens (1%)' }).waitFor();
    await page.getByRole('heading', { name: /^Usage in .+ \(UTC\)$/ }).waitFor();
    await page.getByRole('navigation', { name: 'Agent activity' }).getByRole('link', { name: 'Runs' }).click();
    const list = page.getByRole('list', { name: 'Runs' });
    await list.getByRole('link', { name: 'Where is my invoice for March?' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    expect(await list.getByRole('listitem').first().textContent()).toContain('Failed');

    // Filtered by status, through the API's own filter.
    await page.getByLabel('Status').selectOption({ label: 'Succeeded' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await list.getByRole('link', { name: 'Are there open printer tickets?' }).waitFor();
    await page.getByLabel('Status').selectOption({ label: 'Awaiting approval' });
    await page.getByRole('heading', { name: 'No awaiting approval runs' }).waitFor();
    await page.getByLabel('Status').selectOption({ label: 'Every status' });

    // The succeeded run: status, steps, tokens, cost, latency, and its one tool call with its arguments and result.
    await list.getByRole('link', { name: 'Are there open printer tickets?' }).click();
    await page.getByRole('heading', { name: 'Run', level: 1 }).waitFor();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('Succeeded').waitFor();
    expect(await summary.textContent()).toContain('750 (700 in, 50 out)');
    expect(await summary.textContent()).toContain('Steps2');
    // 700 input tokens at 1000 per million and 50 output at 2000 per million.
    expect(await summary.textContent()).toContain(`Cost${(0.7 + 0.1).toFixed(4)}`);
    const calls = page.getByRole('list', { name: 'Tool calls' });
    await calls.getByRole('heading', { name: 'search_tickets' }).waitFor();
    expect(await calls.textContent()).toContain('"query": "printer"');
    expect(await calls.textContent()).toContain('Result');
    await page.getByText('No printer tickets are open.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // The failed run shows why.
    await page.getByRole('link', { name: '← Runs' }).click();
    await list.getByRole('link', { name: 'Where is my invoice for March?' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^The run failed: .*401/ })
      .waitFor();
    expect(await page.getByRole('list', { name: 'Tool calls' }).count()).toBe(0);
    await page.getByText('The agent called no tools in this run.').waitFor();

    // Dark, then phone width: the run and the list read the same and pass axe.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('link', { name: '← Runs' }).click();
    await list.getByRole('listitem').nth(1).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // The agents list shows each agent's month too.
    await page.goto('/app/agents');
    await page
      .getByRole('list', { name: 'Agents' })
      .getByText(/750 of 50,000 tokens \(1%\) this month/)
      .waitFor();
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it("searches the lead's chat history by title and message text, and opens a chat read-only", { timeout: 60_000 }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto('/app/agents');
    await page.getByRole('link', { name: 'Chat history' }).click();
    await page.getByRole('heading', { name: 'Chat history', level: 1 }).waitFor();
    const chats = page.getByRole('list', { name: 'Chats' });
    await chats.getByRole('link', { name: 'Billing' }).waitFor();
    await chats.getByRole('link', { name: 'Printer trouble' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // A word of a message finds its chat; the API searches, the page shows its answer.
    const search = page.getByRole('searchbox', { name: 'Search chats' });
    await search.fill('INVOICE');
    await expect.poll(() => chats.getByRole('listitem').count()).toBe(1);
    await chats.getByRole('link', { name: 'Billing' }).waitFor();
    await search.fill('printer trouble');
    await chats.getByRole('link', { name: 'Printer trouble' }).waitFor();
    await expect.poll(() => chats.getByRole('listitem').count()).toBe(1);
    await search.fill('parcel to Mars');
    await page.getByRole('heading', { name: 'No chats match' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // Opened: every message in order, and nothing to write with.
    await search.fill('printer');
    await chats.getByRole('link', { name: 'Printer trouble' }).click();
    await page.getByRole('heading', { name: 'Printer trouble', level: 1 }).waitFor();
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.getByText('No printer tickets are open.').waitFor();
    expect(await messages.getByRole('listitem').first().textContent()).toContain('Are there open printer tickets?');
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /send/i }).count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await accessibilityProblems(page)).toEqual([]);

    // Another user's history holds none of the lead's chats.
    const member = await inviteAgent(server, { name: 'Mo Member', email: 'mo@acme.test' });
    const memberSession = await openSignedIn(browser, server, member);
    await memberSession.page.goto('/app/agents/chats');
    await memberSession.page.getByRole('heading', { name: 'No chats yet' }).waitFor();
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
