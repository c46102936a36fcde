import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/lib/clock.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { createTeamWith, createTicket, pageFailures } from './inbox-session.js';

const FROM = '2026-01-12';
const TO = '2026-01-14';

/**
 * The reports page shows the volume the API counts for a team and a range, and downloads the
 * API's own CSV of it. Tickets are filed on a fixed server clock over three days; the page's range
 * is typed in as custom days.
 */
describe('the reports page (Chromium, SQLite, a fixed clock)', () => {
  const clock = fixedClock(`${FROM}T10:00:00.000Z`);
  let server: ConsoleServer;
  let browser: Browser;
  let agent: Agent;
  let care: { id: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({}, { clock }), launchChromium()]);
    agent = await inviteAgent(server, { name: 'Rita Reports', email: 'rita@acme.test' });
    care = await createTeamWith(server, 'Care', 'CARE', agent);
    const billing = await createTeamWith(server, 'Billing', 'BILL', agent);
    // Care: 3 tickets on the 12th, 2 on the 13th, one of the 12th closed on the 14th. Billing: 1, not counted for Care.
    const first = await createTicket(server, care.id, { title: 'Cannot sign in' });
    await createTicket(server, care.id, { title: 'Reset my password' });
    await createTicket(server, care.id, { title: 'Export is slow' });
    await createTicket(server, billing.id, { title: 'Invoice twice' });
    clock.set(`2026-01-13T10:00:00.000Z`);
    await createTicket(server, care.id, { title: 'Dark mode please' });
    await createTicket(server, care.id, { title: 'Wrong language' });
    clock.set(`2026-01-14T10:00:00.000Z`);
    await server.call('PATCH', `/v1/tickets/${first.id}`, { assignedAgentId: agent.id });
    await server.call('PATCH', `/v1/tickets/${first.id}`, { statusName: 'Closed' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the team's volume over the range as the API counts it, and downloads the API's CSV", {
    timeout: 60_000,
  }, async () => {
    const query = `from=${FROM}&to=${TO}&teamId=${care.id}`;
    const api = await server.call<{ totals: Record<string, number> }>('GET', `/v1/reports/volume?${query}`);
    expect(api.totals).toEqual({ created: 5, closed: 1, reopened: 0, backlog: 4 });

    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('tab', { name: 'Volume', selected: true }).waitFor();
    await page.getByLabel('Range', { exact: true }).selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill(FROM);
    await page.getByLabel('To', { exact: true }).fill(TO);
    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Care' });
    await expect.poll(() => new URL(page.url()).searchParams.get('team')).toBe(care.id);

    // A figure is a group named by its label, holding the label and the number.
    const figure = async (name: string) =>
      (await page.getByRole('group', { name, exact: true }).textContent())?.slice(name.length);
    await expect.poll(() => figure('Created')).toBe('5');
    expect(await figure('Closed')).toBe(String(api.totals.closed));
    expect(await figure('Reopened')).toBe(String(api.totals.reopened));
    expect(await figure('Backlog at the end')).toBe(String(api.totals.backlog));
    // The chart is named, and its numbers are in a table for screen readers: one row per day.
    await page.getByRole('img', { name: /^Chart of Volume, 2026-01-12 to 2026-01-14/ }).waitFor();
    await page.locator('canvas').first().waitFor();
    const table = page.getByRole('table', { name: /^Volume, 2026-01-12 to 2026-01-14/ });
    expect(await table.getByRole('row').allTextContents()).toEqual([
      'Period startingCreatedClosedReopenedBacklog',
      '2026-01-123003',
      '2026-01-132005',
      '2026-01-140104',
    ]);
    expect(await accessibilityProblems(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`report-volume-${FROM}-${TO}.csv`);
    const saved = readFileSync((await download.path()) as string, 'utf8');
    const apiCsv = await fetch(`${server.origin}/v1/reports/volume?${query}`, {
      headers: { 'x-api-key': server.apiKey, accept: 'text/csv' },
    });
    expect(saved).toBe(await apiCsv.text());
    expect(saved.split('\r\n')[0]).toBe('start,created,closed,reopened,backlog');

    // Days before any ticket: nothing to chart. A range ending before it starts: the API's refusal.
    await page.getByLabel('From', { exact: true }).fill('2025-06-01');
    await page.getByLabel('To', { exact: true }).fill('2025-06-03');
    await page.getByText('Nothing to chart in this range.').waitFor();
    expect(await figure('Backlog at the end')).toBe('0');
    await page.getByLabel('From', { exact: true }).fill('2025-06-09');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('to must not be before from (400)');
    await page.getByLabel('From', { exact: true }).fill(FROM);
    await page.getByLabel('To', { exact: true }).fill(TO);

    // Another report from the picker, then the dark theme: still no accessibility problem.
    await page.getByRole('tab', { name: 'Resolution time' }).click();
    await expect.poll(() => figure('Measured')).toBe('1');
    // The agents' totals, per agent by name, as the API counts them.
    const agents = await server.call<{ totals: { agents: { agentId: string | null; ticketsHandled: number }[] } }>(
      'GET',
      `/v1/reports/agents?${query}`,
    );
    expect(agents.totals.agents).toContainEqual(expect.objectContaining({ agentId: agent.id, ticketsHandled: 1 }));
    await page.getByRole('tab', { name: 'Agents' }).click();
    const rita = page.getByRole('row', { name: /^Rita Reports/ });
    await expect.poll(() => rita.getByRole('cell').allTextContents()).toEqual(['1', '0', '—', '—', '—']);
    // The SLA and satisfaction tabs read their reports: no policy and no survey here, so nothing breached or sent.
    await page.getByRole('tab', { name: 'SLA' }).click();
    await expect.poll(() => figure('Breaches')).toBe('0');
    await page.getByRole('tab', { name: 'Satisfaction' }).click();
    await expect.poll(() => figure('Surveys sent')).toBe('0');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('tab', { name: 'Volume' }).click();
    await expect.poll(() => figure('Created')).toBe('5');
    await page.locator('canvas').first().waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });
});
