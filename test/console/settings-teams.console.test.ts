import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/lib/clock.js';
import { type Agent, inviteAgent, openSignedIn, signInThroughForm } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium, openConsole } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

/** A Monday, 10:00 in Paris: inside 09:00-17:00, unless that Monday is a holiday. */
const MONDAY_10_IN_PARIS = '2027-01-04T09:00:00.000Z';

interface Configuration {
  timezone: string;
  holidays: string[];
  dailyConfig: Record<string, { isActive: boolean; slots: { start: string; end: string }[] }>;
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
}

describe('team settings (Chromium, SQLite, a fixed clock)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let lead: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({}, { clock: fixedClock(MONDAY_10_IN_PARIS) }), launchChromium()]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a support lead creates a team, gives it hours with an overnight slot, a time zone, a holiday and a tag, and the status follows', {
    timeout: 90_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto('/app/settings/teams');
    await page.getByText('No teams yet').waitFor();
    await page.getByRole('button', { name: 'New team' }).click();
    await page.getByLabel('Name').fill('Night Desk');
    await page.getByLabel('Identifier').fill('NGT');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'Night Desk' }).waitFor();
    const teamId = new URL(page.url()).pathname.split('/').pop() ?? '';

    await openTab(page, 'Business hours');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Add a slot to Friday' }).click();
    await page.getByLabel('Friday slot 2 opens').fill('22:00');
    await page.getByLabel('Friday slot 2 closes').fill('02:00');
    await page.getByText('Overnight, until 02:00 the next day').waitFor();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const status = page.getByRole('status', { name: 'Business hours now' });
    await expect.poll(() => status.textContent()).toBe('Open now, closes at 17:00');
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByLabel('Holiday date').fill('2027-01-04');
    await page.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByRole('list', { name: 'Holidays' }).getByText('4 January 2027').waitFor();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => status.textContent()).toBe('Closed, opens Tuesday 09:00');

    await openTab(page, 'Tags');
    await page.getByRole('button', { name: 'New tag' }).click();
    await page.getByLabel('Tag name').fill('Night owls');
    await page.getByLabel('Colour', { exact: true }).fill('#AA3300');
    await page.getByLabel('Type').selectOption('skills');
    await page.getByLabel('Description').fill('Works the late shift');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('list', { name: 'Tags' }).getByText('Night owls').waitFor();

    const configuration = await server.call<Configuration>('GET', `/v1/teams/${teamId}/configurations`);
    expect(configuration.timezone).toBe('Europe/Paris');
    expect(configuration.holidays).toEqual(['04-01-2027']);
    expect(configuration.dailyConfig.friday).toEqual({
      isActive: true,
      slots: [
        { start: '09:00', end: '17:00' },
        { start: '22:00', end: '24:00' },
      ],
    });
    expect(configuration.dailyConfig.saturday).toEqual({ isActive: true, slots: [{ start: '00:00', end: '02:00' }] });
    const tags = await server.call<{ items: { name: string; color: string; type: string; description: string }[] }>(
      'GET',
      `/v1/teams/${teamId}/tags`,
    );
    expect(tags.items).toEqual([
      expect.objectContaining({ name: 'Night owls', color: '#AA3300', type: 'skills', description: 'Works the late shift' }),
    ]);

    // Reloaded, the overnight slot is one slot again, and Saturday still shows as closed.
    await page.goto(`/app/settings/teams/${teamId}?tab=hours`);
    expect(await page.getByLabel('Friday slot 2 closes').inputValue()).toBe('02:00');
    expect(await page.getByLabel('Open on Saturday').isChecked()).toBe(false);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it("refused input keeps what was typed and shows the API's words beside the field, and nothing is written", {
    timeout: 60_000,
  }, async () => {
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Refusals', identifier: 'REF' });
    const before = await server.call<Configuration>('GET', `/v1/teams/${team.id}/configurations`);
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto(`/app/settings/teams/${team.id}?tab=tags`);
    await page.getByRole('button', { name: 'New tag' }).click();
    const name = page.getByLabel('Tag name');
    await name.fill('x'.repeat(51));
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByText('name must be at most 50 characters long').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.inputValue()).toBe('x'.repeat(51));
    await page.getByRole('button', { name: 'Cancel' }).click();

    await openTab(page, 'Business hours');
    await page.getByLabel('Monday slot 1 closes').fill('09:00');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('dailyConfig.monday.slots.0 must start before it ends (09:00 is not before 09:00)').waitFor();
    expect(await page.getByLabel('Monday slot 1 closes').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Monday slot 1 closes').inputValue()).toBe('09:00');

    expect((await server.call<{ count: number }>('GET', `/v1/teams/${team.id}/tags`)).count).toBe(0);
    expect(await server.call<Configuration>('GET', `/v1/teams/${team.id}/configurations`)).toEqual(before);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('the team page reads well on a phone in dark mode', { timeout: 60_000 }, async () => {
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Phone Desk', identifier: 'PHN' });
    const session = await openConsole(browser, server.origin, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const { page } = session;
    await page.goto('/app/sign-in');
    await signInThroughForm(session, lead.email);
    for (const tab of ['members', 'hours', 'routing']) {
      await page.goto(`/app/settings/teams/${team.id}?tab=${tab}`);
      await page.getByRole('tab', { selected: true }).waitFor();
      await page.getByRole('button', { name: /^(Add member|Save configuration)$/ }).waitFor();
      expect(await accessibilityProblems(page), tab).toEqual([]);
    }
    await page.goto('/app/settings/teams');
    await page.getByRole('link', { name: 'Phone Desk' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
