import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/lib/clock.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';
import { SLA_DESK_CREATED, SLA_DESK_NOW, seedSlaDesk } from './sla-desk.js';

/** The SLA section of the ticket page's side panel. */
const slaSection = (page: Page) => page.getByRole('region', { name: 'SLA', exact: true });

/** The line of one target in the section, by its metric's name. */
const targetLine = (page: Page, metric: string) => slaSection(page).getByRole('listitem').filter({ hasText: metric }).first();

/**
 * The ticket page's SLA section counts down each target by the browser's clock and, once an agent
 * puts the ticket On hold, shows it paused; its history names who paused it and why. The server
 * runs on a fixed clock, the page on Playwright's.
 */
describe("the ticket page's SLA clock (Chromium, SQLite, a fixed clock)", () => {
  const clock = fixedClock(SLA_DESK_CREATED);
  let server: ConsoleServer;
  let browser: Browser;
  let agent: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({}, { clock }), launchChromium()]);
    agent = await inviteAgent(server, { name: 'Dana Due', email: 'dana@acme.test' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows "Due in …" per target, then Paused and the pause in the history once On hold', {
    timeout: 60_000,
  }, async () => {
    const { bound: ticket, unbound } = await seedSlaDesk(server, agent, clock, { firstReply: 45, resolution: 240 });

    const session = await openSignedIn(browser, server, agent, { viewport: { width: 1400, height: 900 } });
    const { page } = session;
    await page.clock.install({ time: new Date(SLA_DESK_NOW) });
    await page.goto(`/app/tickets/${ticket.ticketIdentifier}`);
    await slaSection(page).waitFor();
    await expect.poll(() => targetLine(page, 'First reply').textContent()).toBe('First replyDue in 42 min');
    await expect.poll(() => targetLine(page, 'Resolution').textContent()).toBe('ResolutionDue in 3 h');
    expect(await slaSection(page).getByRole('heading', { name: 'SLA', exact: true }).count()).toBe(1);

    // The browser's clock alone moves the countdown, into the breach (worded, not only coloured).
    await page.clock.fastForward('47:00');
    await expect.poll(() => targetLine(page, 'First reply').textContent()).toBe('First replyBreached 5 min ago');
    expect(await accessibilityProblems(page, 'section[aria-labelledby="ticket-sla-heading"]')).toEqual([]);

    clock.set('2026-01-15T09:50:00.000Z');
    await page.getByLabel('Status').selectOption({ label: 'On hold' });
    await expect.poll(() => targetLine(page, 'Resolution').textContent()).toBe('ResolutionPaused');

    await slaSection(page).getByRole('button', { name: 'SLA history' }).click();
    const history = slaSection(page).getByRole('list').last();
    const pause = history.getByRole('listitem').filter({ hasText: /^Paused · Resolution/ });
    await pause.waitFor();
    expect(await pause.textContent()).toContain('Dana Due');
    expect(await pause.textContent()).toContain('On hold');
    expect(await history.getByRole('listitem').first().textContent()).toMatch(/^Started · First reply.*Admin/);
    expect(await accessibilityProblems(page, 'section[aria-labelledby="ticket-sla-heading"]')).toEqual([]);

    // The first reply was past due when the status changed: the clock recorded its breach, by the system, before the pause.
    const breach = history.getByRole('listitem').filter({ hasText: /^Breached · First reply/ });
    expect(await breach.count()).toBe(1);
    expect(await breach.textContent()).toContain('System');
    expect(await history.getByRole('listitem').last().textContent()).toMatch(/^Paused/); // newest last

    // A ticket no policy matches has no SLA section.
    await page.goto(`/app/tickets/${unbound.ticketIdentifier}`);
    await page.getByRole('heading', { name: 'Change my invoice address' }).waitFor();
    expect(await slaSection(page).count()).toBe(0);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });
});
