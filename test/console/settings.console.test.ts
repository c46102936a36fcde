import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, apiKeyOf, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

/** The rail of the settings area, in the order the issue names it. */
const RAIL = [
  'Teams',
  'Routing',
  'SLA policies',
  'Custom fields',
  'Accounts',
  'Contacts',
  'Users',
  'API keys',
  'Mailboxes',
  'Channels',
  'Webhooks',
  'Macros',
  'Views',
  'Notifications',
];

describe('the settings area (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let admin: Agent;
  let member: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    [admin, member] = await Promise.all([
      inviteAgent(server, { name: 'Lea Lead', email: 'lea@acme.test', userType: 'ORG_ADMIN' }),
      inviteAgent(server, { name: 'Max Member', email: 'max@acme.test' }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin opens Settings from the top bar, and every area has a rail link with an address of its own', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, admin);
    const { page } = session;
    await page.getByRole('link', { name: 'Settings' }).click();
    // /app/settings opens the first area.
    await page.waitForURL('**/app/settings/teams');
    const rail = page.getByRole('navigation', { name: 'Settings' });
    // The area loads when first opened.
    await rail.getByRole('link', { name: 'Teams', exact: true }).waitFor();
    for (const label of RAIL) {
      await expect(rail.getByRole('link', { name: label, exact: true }).count()).resolves.toBe(1);
    }
    // The views rail of the inbox gives way to the settings rail.
    expect(await page.getByRole('navigation', { name: 'Views' }).count()).toBe(0);

    await rail.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.waitForURL('**/app/settings/webhooks');
    expect(await rail.getByRole('link', { name: 'Webhooks', exact: true }).getAttribute('aria-current')).toBe('page');

    // A linked address opens the same page in a new tab.
    const linked = await session.context.newPage();
    await linked.goto('/app/settings/api-keys');
    await linked.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(
      await linked
        .getByRole('navigation', { name: 'Settings' })
        .getByRole('link', { name: 'API keys', exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');

    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('an agent who is not an admin sees no Settings link, a direct address says they lack access, and the API refuses their settings writes', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, member);
    const { page } = session;
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);

    await page.goto('/app/settings/teams');
    await page.getByRole('heading', { name: 'You do not have access to settings' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings' }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await session.context.close();

    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' });
    const key = await apiKeyOf(server, member);
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/teams', { name: 'Shadow team', identifier: 'SHD' }],
      ['PATCH', `/v1/teams/${team.id}`, { name: 'Renamed' }],
      ['PATCH', `/v1/teams/${team.id}/configurations`, { userRoutingStrategy: 'manual' }],
      ['POST', `/v1/teams/${team.id}/tags`, { name: 'vip', color: '#112233', type: 'ticket' }],
      ['POST', `/v1/teams/${team.id}/routing`, { name: 'Everything', resultTeamId: team.id }],
      ['POST', '/v1/webhooks', { url: 'https://example.com/hook', eventTypes: ['ticket.created'] }],
      ['POST', '/v1/users', { name: 'Eve', email: 'eve@acme.test' }],
      ['PATCH', `/v1/users/${admin.id}`, { disabled: true }],
    ];
    for (const [method, path, body] of writes) {
      const response = await fetch(`${server.origin}${path}`, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 403`);
    }
    const teams = await server.call<{ name: string }[]>('GET', '/v1/teams');
    expect(teams.map((t) => t.name)).toEqual(['Support']);
  });
});
