import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type TestModelServer } from '../model-server.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

/** What a control's description reads (its hint and its error), as a screen reader reads it with the control. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

interface Provider {
  id: string;
  name: string;
  base_url: string;
  default_model: string;
  has_api_key: boolean;
}

describe('AI agents: model providers and agents (Chromium, SQLite, a loopback model)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let model: TestModelServer;
  let lead: Agent;

  beforeAll(async () => {
    // The model server is on loopback: OUTBOUND_ALLOWED_HOSTS lets providers reach it, as it would a private host.
    model = await startModelServer();
    [server, browser] = await Promise.all([
      startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: new URL(model.baseUrl).host }),
      launchChromium(),
    ]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  const providers = () => server.call<Provider[]>('GET', '/api/v1/model-providers');

  it('a lead adds a provider whose key passes its test, keeps a failing key only when confirming, and makes an agent on it', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.getByRole('link', { name: 'AI agents' }).click();
    await page.getByRole('heading', { name: 'AI agents', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No model providers yet' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // A key is tried with one completion before it is saved; this one passes.
    await page.getByRole('link', { name: 'New model provider' }).click();
    await page.getByLabel('Name').fill('Loopback');
    await page.getByLabel('Base URL').fill(model.baseUrl);
    await page.getByLabel('Default model').fill('small-1');
    await page.getByLabel('API key').fill('sk-good-key');
    model.script({ text: 'pong' });
    await page.getByRole('button', { name: 'Create provider' }).click();
    await page.getByRole('heading', { name: 'Loopback', level: 1 }).waitFor();
    expect(model.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-good-key']);
    expect(model.requests[0]?.body.model).toBe('small-1');
    const [loopback] = await providers();
    expect(loopback).toMatchObject({ name: 'Loopback', base_url: model.baseUrl, default_model: 'small-1', has_api_key: true });
    expect(await providers()).toHaveLength(1);

    // The key is never shown, only that one is set; "Test" shows what the model answered.
    const keyField = page.getByLabel('API key');
    expect(await keyField.inputValue()).toBe('');
    expect(await descriptionOf(keyField)).toMatch(/^A key is set; it is never shown/);
    expect(await page.content()).not.toContain('sk-good-key');
    model.script({ text: 'Hello from loopback' });
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Test passed: small-1 answered in \d+ ms“Hello from loopback”$/ })
      .waitFor();

    // Saved with the key left empty: the stored key stays, and nothing is tried.
    await page.getByLabel('Default model').fill('small-3');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await expect.poll(async () => (await providers())[0]?.default_model).toBe('small-3');
    expect((await providers())[0]?.has_api_key).toBe(true);
    expect(model.requests).toHaveLength(2);

    // A key the provider refuses: saved only when the lead confirms.
    await page.getByRole('link', { name: '← AI agents' }).click();
    await page.getByRole('link', { name: 'New model provider' }).click();
    await page.getByLabel('Name').fill('Refused');
    await page.getByLabel('Base URL').fill(model.baseUrl);
    await page.getByLabel('Default model').fill('small-1');
    await page.getByLabel('API key').fill('sk-bad-key');
    model.script({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    await page.getByRole('button', { name: 'Create provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'The key failed its test' });
    await dialog.getByText('The model provider refused the credentials (HTTP 401): Incorrect API key provided').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await providers()).map((provider) => provider.name)).toEqual(['Loopback']);

    model.script({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    await page.getByRole('button', { name: 'Create provider' }).click();
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
    await page.getByRole('heading', { name: 'Refused', level: 1 }).waitFor();
    expect((await providers()).map((provider) => [provider.name, provider.has_api_key])).toEqual([
      ['Loopback', true],
      ['Refused', true],
    ]);
    await page.getByRole('button', { name: 'Delete provider' }).click();
    await page.getByRole('dialog', { name: 'Delete Refused?' }).getByRole('button', { name: 'Delete provider' }).click();
    await page.getByRole('heading', { name: 'AI agents', level: 1 }).waitFor();
    expect((await providers()).map((provider) => provider.name)).toEqual(['Loopback']);

    // An agent: a value the API refuses is shown beside its field in its words, and nothing is written.
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByLabel('Name').fill('Triage bot');
    await page.getByLabel('Model provider').selectOption({ label: 'Loopback' });
    await page.getByLabel('Model', { exact: true }).fill('small-2');
    await page.getByLabel('Instructions').fill('Answer briefly.\nHand off refunds.');
    const temperature = page.getByLabel('Temperature');
    await temperature.fill('5');
    await page.getByLabel('Steps per run').fill('6');
    await page.getByLabel('Run timeout (seconds)').fill('90');
    await page.getByLabel('Monthly token budget').fill('50000');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => temperature.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(temperature)).toMatch(/configuration\.temperature Input should be less than or equal to 2/);
    expect(await server.call('GET', '/api/v1/agents')).toEqual([]);

    await temperature.fill('0.3');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Triage bot', level: 1 }).waitFor();
    const [agent] = await server.call<{ id: string; name: string; status: string; configuration: object }[]>(
      'GET',
      '/api/v1/agents',
    );
    expect(agent).toMatchObject({ name: 'Triage bot', status: 'active', description: null });
    expect(agent?.configuration).toEqual({
      model_provider_id: loopback?.id,
      model: 'small-2',
      system_instructions: 'Answer briefly.\nHand off refunds.',
      temperature: 0.3,
      max_steps: 6,
      run_timeout_seconds: 90,
      max_output_tokens: null,
      monthly_token_budget: 50000,
    });
    expect(await page.getByLabel('Monthly token budget').inputValue()).toBe('50000');

    // Dark, then phone width: the agent page reads the same and passes axe.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('link', { name: 'AI agents', exact: true }).click();
    await page.getByRole('list', { name: 'Agents' }).getByRole('link', { name: 'Triage bot' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);

    // A member reads the agents and providers with their own session, and is offered no way to make one.
    const member = await inviteAgent(server, { name: 'Mo Member', email: 'mo@acme.test' });
    const memberSession = await openSignedIn(browser, server, member);
    await memberSession.page.getByRole('link', { name: 'AI agents', exact: true }).click();
    await memberSession.page.getByRole('list', { name: 'Model providers' }).getByRole('link', { name: 'Loopback' }).waitFor();
    await memberSession.page.getByRole('list', { name: 'Agents' }).getByRole('link', { name: 'Triage bot' }).waitFor();
    expect(await memberSession.page.getByRole('link', { name: /^New / }).count()).toBe(0);
  });
});
