import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/lib/clock.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';
import { SLA_DESK_CREATED, SLA_DESK_NOW, seedSlaDesk } from './sla-desk.js';

/** The row (wide list) of a ticket, found by its identifier cell. */
const row = (page: Page, identifier: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: identifier, exact: true }) });

/**
 * The inbox's Due column counts down to a ticket's first reply from the browser's clock, and turns
 * to breached once that clock passes the due time, without refetching; the built-in view
 * "Breaching soon" holds the ticket. A breach the server's SLA worker announces shows at once,
 * whatever the browser's clock says. The server runs on a fixed clock, the page on Playwright's.
 */
describe("the inbox's SLA countdown (Chromium, SQLite, a fixed clock)", () => {
  const clock = fixedClock(SLA_DESK_CREATED);
  let server: ConsoleServer;
  let browser: Browser;
  let agent: Agent;
  let desk: Awaited<ReturnType<typeof seedSlaDesk>>;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({}, { clock }), launchChromium()]);
    agent = await inviteAgent(server, { name: 'Dana Due', email: 'dana@acme.test' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows "in 42 min" for a ticket due soon, then "Breached 5 min ago" once the clock passes it', {
    timeout: 60_000,
  }, async () => {
    desk = await seedSlaDesk(server, agent, clock, { firstReply: 45 });
    const { bound: urgent, unbound: calm } = desk;

    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.clock.install({ time: new Date(SLA_DESK_NOW) });
    await page.goto('/app/');
    const breaching = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /^Breaching soon/ });
    await expect.poll(async () => /(\d+)\s*tickets$/.exec((await breaching.textContent()) ?? '')?.[1]).toBe('1');
    await breaching.click();
    await row(page, urgent.ticketIdentifier).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Due' }).count()).toBe(1);
    expect(await row(page, calm.ticketIdentifier).count()).toBe(0);
    const due = row(page, urgent.ticketIdentifier).locator('time[datetime="2026-01-15T09:45:00.000Z"]');
    await expect.poll(() => due.textContent()).toBe('in 42 min');

    // The browser's clock passes the due time: the column turns from it alone (the server's clock
    // still reads 09:03, so no answer of the server says breached).
    await page.clock.fastForward('47:00');
    await expect.poll(() => due.textContent()).toBe('Breached 5 min ago');

    // A ticket without SLA shows nothing in the column.
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /^All open/ })
      .click();
    await row(page, calm.ticketIdentifier).waitFor();
    expect(await row(page, calm.ticketIdentifier).locator('time[datetime^="2026"]').count()).toBe(1); // Updated only
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('shows a breach the SLA worker announces while the list is open, its clock still short of the due time', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.clock.install({ time: new Date(SLA_DESK_NOW) });
    await page.goto('/app/');
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /^All open/ })
      .click();
    const due = row(page, desk.bound.ticketIdentifier).locator('time[datetime^="2026-01-15T09:4"]');
    await expect.poll(() => due.textContent()).toBe('in 42 min');

    // The server's clock passes the due time; the page's does not. The worker (every 10 s) marks
    // the breach and announces sla.breached, and the row is read anew.
    clock.set('2026-01-15T09:46:00.000Z');
    await expect.poll(() => due.textContent(), { timeout: 25_000 }).toBe('Breached just now');
    expect(await due.getAttribute('title')).toMatch(/^Was due/);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });
});
