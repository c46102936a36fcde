import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable } from '../smtp.js';
import { AGENT_PASSWORD, type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

describe('users, API keys and notifications in settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let admin: Agent;
  let session: ConsolePage;

  beforeAll(async () => {
    // The default key cache (API_KEY_CACHE_SECONDS=5): a revoked key, or a disabled user's, still
    // fails at the very next call, because the change makes the server forget the cached key.
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    admin = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, admin);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const callWithKey = (apiKey: string) => fetch(`${server.origin}/v1/users/me`, { headers: { 'x-api-key': apiKey } });

  it('an admin makes a key for Zapier, copies it once, sees it used, and revokes it', { timeout: 60_000 }, async () => {
    const { page, context } = session;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await page.goto('/app/settings/api-keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Zapier');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'API key “Zapier”' });
    await dialog.getByText('it will not be shown again').waitFor();
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await dialog.getByRole('status').getByText('Copied').waitFor();
    const apiKey = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(apiKey).toBe(await dialog.getByLabel('Your new API key').inputValue());
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();

    expect((await callWithKey(apiKey)).status).toBe(200);
    await page.reload();
    const keys = page.getByRole('list', { name: 'API keys' });
    await expect
      .poll(() => keys.getByRole('listitem').filter({ hasText: 'Zapier' }).textContent())
      .not.toMatch(/last used never/);
    expect(await accessibilityProblems(page)).toEqual([]);

    await keys.getByRole('button', { name: /^Revoke Zapier/ }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await keys.getByText('Revoked', { exact: true }).waitFor();
    expect((await callWithKey(apiKey)).status).toBe(401);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('an admin invites Sam, makes them an admin, ends their session, disables and enables them', {
    timeout: 60_000,
  }, async () => {
    const { page } = session;
    await page.goto('/app/settings/users');
    await page.getByRole('button', { name: 'Invite user' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite user' });
    await invite.getByLabel('Name').fill('Sam Support');
    await invite.getByLabel('Email').fill('sam@acme.test');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('link', { name: 'Sam Support' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // Sam accepts the emailed invitation, which signs a browser in, and gets a key for a script.
    const mail = await until(() => server.mail.find((message) => message.to.includes('sam@acme.test')), 'the invitation');
    const token = /accept-invite\?token=([\w-]+)/.exec(decodeQuotedPrintable(mail.raw))?.[1];
    const accepted = await fetch(`${server.origin}/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.origin,
        'user-agent': 'Mozilla/5.0 (X11; Linux) Firefox/140.0',
      },
      body: JSON.stringify({ token, password: AGENT_PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    const sam = ((await accepted.json()) as { data: { user: Agent } }).data.user;
    const { apiKey } = await server.call<{ apiKey: string }>('POST', `/v1/users/${sam.id}/api-keys`, { name: 'Sam script' });

    await page.getByRole('link', { name: 'Sam Support' }).click();
    await page.getByRole('heading', { name: 'Sam Support' }).waitFor();
    await page.getByRole('combobox', { name: 'Role' }).selectOption('ORG_ADMIN');
    await page.getByRole('button', { name: 'Save role' }).click();
    await expect
      .poll(async () => (await server.call<Agent & { userType: string }>('GET', `/v1/users/${sam.id}`)).userType)
      .toBe('ORG_ADMIN');

    const sessions = page.getByRole('list', { name: 'Sessions' });
    await sessions.getByRole('button', { name: 'Revoke Firefox on Linux session from 127.0.0.1' }).click();
    await page.getByRole('button', { name: 'Revoke session' }).click();
    await page.getByText('Not signed in anywhere').waitFor();
    expect(await server.call('GET', `/v1/users/${sam.id}/sessions`)).toEqual([]);
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByRole('dialog', { name: 'Disable Sam Support?' }).getByText('API keys stop working').waitFor();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByRole('button', { name: 'Enable user' }).waitFor();
    expect((await callWithKey(apiKey)).status).toBe(401);
    await page.getByRole('button', { name: 'Enable user' }).click();
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('button', { name: 'Disable user' }).waitFor();
    expect((await callWithKey(apiKey)).status).toBe(200);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('an admin turns off mention emails for a colleague, on a phone, in the dark', { timeout: 60_000 }, async () => {
    const noor = await server.call<Agent>('POST', '/v1/users', { name: 'Noor Night', email: 'noor@acme.test' });
    const phone = await openSignedIn(browser, server, admin, { viewport: { width: 390, height: 844 } });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    const { page } = phone;
    await page.goto('/app/settings/notifications');
    const picker = page.getByLabel('Notifications of');
    await picker.selectOption({ label: 'Noor Night (noor@acme.test)' });
    await page.getByLabel('Mentions').uncheck();
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect(await server.call('GET', `/v1/users/${noor.id}/notifications`)).toMatchObject({ mentioned: false, assigned: true });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(phone.foreignRequests).toEqual([]);
    expect(pageFailures(phone)).toEqual([]);
    await phone.context.close();
  });
});
