import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { startModelServer, type TestModelServer } from '../../../test/model-server.js';

const DAY_MS = 86_400_000;

describe.each(DIALECTS)("an agent's usage of the month on %s", (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let model: TestModelServer;
  let providerId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    model = await startModelServer();
    const provider = await request('POST', '/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-usage',
      default_model: 'test-model',
    });
    expect(provider.statusCode, provider.body).toBe(200);
    providerId = provider.json().id;
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  function request(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers: Record<string, string> = acme.headers,
  ) {
    return harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  }

  async function makeAgent(name: string, configuration: Record<string, unknown>) {
    const agent = await request('POST', '/agents', { name, configuration: { model_provider_id: providerId, ...configuration } });
    expect(agent.statusCode, agent.body).toBe(200);
    return agent.json();
  }

  async function chat(agentId: string, usage: { prompt_tokens: number; completion_tokens: number }) {
    const thread = await request('POST', `/chat/${agentId}/threads`, { title: 'Talk' });
    model.script({ text: 'Done.', usage });
    const answer = await request('POST', `/chat/${agentId}/threads/${thread.json().id}/messages`, {
      role: 'user',
      content: 'Go',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().metadata.run_error ?? null).toBeNull();
  }

  const usageOf = async (agentId: string) => (await request('GET', `/agents/${agentId}`)).json().usage;

  it("counts each agent's runs of the calendar month (UTC) against its budget, in the agent and in the list", async () => {
    const budgeted = await makeAgent('Budgeted', { monthly_token_budget: 50_000 });
    const unlimited = await makeAgent('Unlimited', {});
    // A new agent has used nothing; the month is the clock's, in UTC (the test clock is 2026-01-15).
    expect(budgeted.usage).toEqual({ month: '2026-01', tokens: 0, budget: 50_000 });
    expect(unlimited.usage).toEqual({ month: '2026-01', tokens: 0, budget: null });

    await chat(budgeted.id, { prompt_tokens: 120, completion_tokens: 30 });
    await chat(budgeted.id, { prompt_tokens: 40, completion_tokens: 10 });
    await chat(unlimited.id, { prompt_tokens: 7, completion_tokens: 3 });
    expect(await usageOf(budgeted.id)).toEqual({ month: '2026-01', tokens: 200, budget: 50_000 });
    expect(await usageOf(unlimited.id)).toEqual({ month: '2026-01', tokens: 10, budget: null });

    const list = await request('GET', '/agents');
    expect(list.statusCode).toBe(200);
    const listed = list.json().map((agent: { name: string; usage: unknown }) => [agent.name, agent.usage]);
    expect(listed.sort()).toEqual([
      ['Budgeted', { month: '2026-01', tokens: 200, budget: 50_000 }],
      ['Unlimited', { month: '2026-01', tokens: 10, budget: null }],
    ]);

    // A budget set later is read at once; the tokens stay what the runs used.
    const changed = await request('PUT', `/agents/${unlimited.id}`, {
      configuration: { model_provider_id: providerId, monthly_token_budget: 1000 },
    });
    expect(changed.json().usage).toEqual({ month: '2026-01', tokens: 10, budget: 1000 });

    // The next month (UTC) starts from nothing.
    harness.clock.advance(20 * DAY_MS);
    expect(await usageOf(budgeted.id)).toEqual({ month: '2026-02', tokens: 0, budget: 50_000 });
    await chat(budgeted.id, { prompt_tokens: 5, completion_tokens: 5 });
    expect(await usageOf(budgeted.id)).toEqual({ month: '2026-02', tokens: 10, budget: 50_000 });
  });

  it("another organization's agent is not found, and its list holds only its own agents", async () => {
    const agent = await makeAgent('Private', {});
    expect((await request('GET', `/agents/${agent.id}`, undefined, globex.headers)).statusCode).toBe(404);
    expect((await request('GET', '/agents', undefined, globex.headers)).json()).toEqual([]);
  });
});
