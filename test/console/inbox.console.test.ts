import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { createTeamWith, createTicket, pageFailures } from './inbox-session.js';

/** The row (wide list) of a ticket, found by its identifier cell. */
const row = (page: Page, identifier: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: identifier, exact: true }) });

/** The count the rail shows beside a view. */
async function railCount(page: Page, view: string): Promise<number> {
  const text = await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: new RegExp(`^${view}`) })
    .textContent();
  return Number(/(\d+)\s*tickets$/.exec(text ?? '')?.[1]);
}

describe('the inbox (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let agent: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    agent = await inviteAgent(server, { name: 'Ines Inbox', email: 'ines@acme.test' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an agent filters the open tickets by status and priority, then finds one with the command bar and opens it', {
    timeout: 60_000,
  }, async () => {
    const team = await createTeamWith(server, 'Billing', 'BIL', agent);
    const refund = await createTicket(server, team.id, {
      title: 'Refund for invoice 42',
      priorityName: 'High',
      description: 'The customer was charged twice.',
    });
    await createTicket(server, team.id, { title: 'Password reset loop', priorityName: 'Low' });
    const address = await createTicket(server, team.id, {
      title: 'Invoice address wrong',
      priorityName: 'High',
      statusName: 'In progress',
    });
    await createTicket(server, team.id, { title: 'Old refund, settled', statusName: 'Closed' });

    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /^All open/ })
      .click();
    await page.getByRole('link', { name: 'Refund for invoice 42' }).waitFor();
    expect(await page.getByRole('link', { name: /^All open/ }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('table').getByRole('row').count()).toBe(4); // the header and three open tickets

    await page.getByLabel('Status', { exact: true }).selectOption('In progress');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await row(page, address.ticketIdentifier).count()).toBe(1);

    await page.getByLabel('Status', { exact: true }).selectOption('Open');
    await page.getByLabel('Priority', { exact: true }).selectOption('High');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await row(page, refund.ticketIdentifier).count()).toBe(1);
    const url = new URL(page.url());
    expect(url.searchParams.get('view')).toBe('builtin:all-open');
    expect(url.searchParams.get('status')).toBe('Open');
    expect(url.searchParams.get('priority')).toBe('High');

    // The filters live in the URL: a reload shows the same list.
    await page.reload();
    await row(page, refund.ticketIdentifier).waitFor();
    expect(await page.getByLabel('Priority', { exact: true }).inputValue()).toBe('High');
    expect(await page.getByRole('row').count()).toBe(2);

    // A filter the API refuses shows the API's message, not a blank page.
    await page.goto('/app/?view=builtin:all-open&status=Bogus');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/statusName is not a status of any team/);

    await page.keyboard.press('/');
    const searchBox = page.getByRole('textbox', { name: 'Search tickets' });
    await searchBox.waitFor();
    await searchBox.fill('refund invoice');
    const result = page.getByRole('option').filter({ hasText: 'Refund for invoice 42' });
    await result.waitFor();
    expect(await page.getByRole('option').count()).toBe(1);
    await searchBox.press('Enter');
    await page.waitForURL(`**/app/tickets/${refund.id}`);
    await expect.poll(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Refund for invoice 42');

    // Ctrl-K opens it from the ticket page too.
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Search tickets' }).waitFor();
    await page.keyboard.press('Escape');

    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('a ticket created through the API appears in the open list without a reload, and a status change updates its row', {
    timeout: 60_000,
  }, async () => {
    const team = await createTeamWith(server, 'Live desk', 'LIVE', agent);
    await createTicket(server, team.id, { title: 'Already here' });
    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.goto(`/app/?view=builtin:all-open&team=${encodeURIComponent(JSON.stringify([team.id]))}`);
    await page.getByRole('link', { name: 'Already here' }).waitFor();
    // Subscribed before the ticket is made: the stream starts at the present.
    await page.getByTitle('Live updates on').waitFor();
    // Marks this page load: a reload would lose it.
    await page.evaluate('window.inboxMarker = true');

    const arrived = await createTicket(server, team.id, { title: 'Printer on fire', priorityName: 'Urgent' });
    const arrivedRow = row(page, arrived.ticketIdentifier);
    await arrivedRow.waitFor();
    // Newest first: above the older ticket.
    const identifiers = await page.getByRole('row').allTextContents();
    expect(identifiers.findIndex((text) => text.includes('Printer on fire'))).toBeLessThan(
      identifiers.findIndex((text) => text.includes('Already here')),
    );

    await server.call('PATCH', `/v1/tickets/${arrived.id}`, { statusName: 'In progress' });
    await expect.poll(() => arrivedRow.textContent()).toContain('In progress');
    await server.call('PATCH', `/v1/tickets/${arrived.id}`, { assignedAgentId: agent.id });
    await expect.poll(() => arrivedRow.textContent()).toContain(agent.name);
    // Closed: it leaves the list of open tickets.
    await server.call('PATCH', `/v1/tickets/${arrived.id}`, { statusName: 'Closed' });
    await expect.poll(() => arrivedRow.count()).toBe(0);

    expect(await page.evaluate('window.inboxMarker')).toBe(true);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('an agent closes two tickets at once and the view count drops; j/k/x/e/a/Enter work the list from the keyboard', {
    timeout: 60_000,
  }, async () => {
    const team = await createTeamWith(server, 'Operations', 'OPS', agent);
    const tickets = [];
    for (const title of ['Disk full', 'VPN down', 'Badge reader', 'Coffee machine', 'Projector']) {
      tickets.push(await createTicket(server, team.id, { title }));
    }
    const [first, second, third, fourth, fifth] = tickets.map((ticket) => ticket.ticketIdentifier);
    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.goto(`/app/?view=builtin:all-open&team=${encodeURIComponent(JSON.stringify([team.id]))}`);
    await row(page, first ?? '').waitFor();
    const before = await railCount(page, 'All open');

    // Newest first: OPS-5 … OPS-1. OPS-2, then shift-click OPS-1: the two adjacent rows.
    await page.getByRole('checkbox', { name: `Select ${second}` }).click();
    await page.getByRole('checkbox', { name: `Select ${first}` }).click({ modifiers: ['Shift'] });
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await expect.poll(() => bulk.textContent()).toContain('2 selected');
    await bulk.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => row(page, first ?? '').count()).toBe(0);
    expect(await row(page, second ?? '').count()).toBe(0);
    await expect.poll(() => railCount(page, 'All open'), { timeout: 8_000 }).toBe(before - 2);
    const closed = await server.call<{ status: string }>('GET', `/v1/tickets/${tickets[0]?.id}`);
    expect(closed.status).toBe('Closed');

    // The keyboard. The focus followed the clicks to OPS-1; gone, it moved to the row that took its place (OPS-3).
    await page.evaluate('document.activeElement?.blur()');
    const focused = () => page.locator('tr[aria-current="true"]').textContent();
    await expect.poll(focused).toContain(third);
    await page.keyboard.press('k');
    await expect.poll(focused).toContain(fourth);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await expect.poll(focused).toContain(fifth);
    await page.keyboard.press('j');
    await expect.poll(focused).toContain(fourth);
    await page.keyboard.press('e');
    await expect.poll(() => row(page, fourth ?? '').count()).toBe(0);
    // The focus moves to the row that took its place: OPS-3. a assigns it through the picker.
    await expect.poll(focused).toContain(third);
    await page.keyboard.press('a');
    const picker = page.getByRole('dialog', { name: 'Assign the ticket' });
    await picker.getByRole('textbox', { name: 'Find a person' }).fill('Ines');
    await page.keyboard.press('Enter');
    await expect.poll(() => row(page, third ?? '').textContent()).toContain(agent.name);
    expect(await picker.count()).toBe(0);
    // x selects the focused row; ? lists the keys; Enter opens the focused ticket.
    await page.keyboard.press('x');
    expect(await page.getByRole('checkbox', { name: `Select ${third}` }).isChecked()).toBe(true);
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/app/tickets/${tickets[2]?.id}`);

    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('a view of hundreds of tickets scrolls through them page by page, with only the rows in sight in the page', {
    timeout: 60_000,
  }, async () => {
    const team = await createTeamWith(server, 'Backlog', 'BLG', agent);
    for (let number = 1; number <= 150; number++) {
      await createTicket(server, team.id, { title: `Backlog item ${number}` });
    }
    const session = await openSignedIn(browser, server, agent);
    const { page } = session;
    await page.goto(`/app/?view=builtin:all-open&team=${encodeURIComponent(JSON.stringify([team.id]))}`);
    await row(page, 'BLG-150').waitFor();
    // The first page holds 100; the heading says more exist.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).locator('..').textContent()).toContain('100+ tickets');
    const rendered = await page.getByRole('row').count();
    expect(rendered).toBeLessThan(60);
    // Scrolling to the end loads the next page by its cursor, up to the oldest ticket.
    for (let attempt = 0; attempt < 20 && (await row(page, 'BLG-1').count()) === 0; attempt++) {
      await page
        .getByRole('table')
        .locator('..')
        .evaluate((scroller) => {
          scroller.scrollTop = scroller.scrollHeight;
        });
      await page.waitForTimeout(100);
    }
    await row(page, 'BLG-1').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).locator('..').textContent()).toContain('150 tickets');
    expect(await page.getByRole('row').count()).toBeLessThan(60);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('on a 390-pixel phone the list shows cards, and a tap opens the ticket', { timeout: 60_000 }, async () => {
    const team = await createTeamWith(server, 'Mobile', 'MOB', agent);
    const ticket = await createTicket(server, team.id, { title: 'App crashes on login' });
    const session = await openSignedIn(browser, server, agent, { viewport: { width: 390, height: 844 } });
    const { page } = session;
    await page.goto(`/app/?view=builtin:all-open&team=${encodeURIComponent(JSON.stringify([team.id]))}`);
    const list = page.getByRole('list', { name: 'All open' });
    await list.getByRole('listitem').filter({ hasText: ticket.ticketIdentifier }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    // The rail is a drawer on phones.
    expect(await page.getByRole('navigation', { name: 'Views' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show views' }).click();
    expect(await page.getByRole('navigation', { name: 'Views' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Show views' }).click();
    // Nothing sticks out sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    await list.getByRole('link', { name: 'App crashes on login' }).click();
    await page.waitForURL(`**/app/tickets/${ticket.id}`);
    await expect.poll(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('App crashes on login');
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });
});
