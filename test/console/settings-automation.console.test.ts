import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import type { ConsolePage } from './browser.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { createTeamWith, createTicket, pageFailures } from './inbox-session.js';

interface CommentShape {
  content: string;
  metadata: Record<string, unknown> | null;
}

/** The page is sideways-scrollable when its content is wider than the window (a phone's, here). */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
      .document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });

describe('settings: macros and views (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let admin: Agent;
  let agent: Agent;
  let teamId: string;
  let adminConsole: ConsolePage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    admin = await inviteAgent(server, { name: 'Lea Lead', email: 'lea@acme.test', userType: 'ORG_ADMIN' });
    agent = await inviteAgent(server, { name: 'Ines Inbox', email: 'ines@acme.test' });
    teamId = (await createTeamWith(server, 'Billing', 'BIL', admin)).id;
    await server.call('POST', `/v1/teams/${teamId}/members`, { userId: agent.id });
    adminConsole = await openSignedIn(browser, server, admin);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin writes a macro with a placeholder from the list, checks its preview, saves it, and applies it on a ticket', {
    timeout: 60_000,
  }, async () => {
    const ticket = await createTicket(server, teamId, { title: 'Refund for order 7', priorityName: 'Low' });
    const { page } = adminConsole;
    await page.goto('/app/settings/macros');
    await page.getByText('No macros yet').waitFor();
    await page.getByRole('link', { name: 'New macro' }).click();

    await page.getByRole('textbox', { name: 'Name' }).fill('Refund on its way');
    await page.getByRole('textbox', { name: 'Description' }).fill('Once the refund is issued');
    await page.getByLabel('Shared with').selectOption({ label: 'Billing' });
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Hello, about ');
    await page.getByRole('button', { name: '{{ticket.title}}' }).click();
    await reply.press('End');
    await reply.pressSequentially(': the refund is on its way.');
    expect(await reply.inputValue()).toBe('Hello, about {{ticket.title}}: the refund is on its way.');
    const preview = page.getByRole('region', { name: 'Reply preview' });
    await preview.getByText('Hello, about Refund for order 1042: the refund is on its way.').waitFor();
    await page.getByLabel('Set priority').selectOption({ label: 'High' });
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Macro: Refund on its way' }).waitFor();
    const [macro] = await server.call<{ id: string; teamId: string; actions: object }[]>('GET', '/v1/macros');
    expect(macro).toMatchObject({ teamId, actions: { priorityName: 'High' } });
    expect(page.url()).toContain(`/app/settings/macros/${macro?.id}`);
    // The list finds it by a part of its name, any case.
    await page.getByRole('link', { name: 'All macros' }).click();
    await page.getByRole('searchbox', { name: 'Find a macro by name' }).fill('ITS WAY');
    await page.getByText('Once the refund is issued').waitFor();
    await page.getByRole('searchbox', { name: 'Find a macro by name' }).fill('greeting');
    await page.getByText('No macro’s name holds “greeting”.').waitFor();

    await page.goto(`/app/tickets/${ticket.id}`);
    await page.getByRole('button', { name: 'Macros' }).click();
    await page.getByRole('button', { name: 'Apply macro Refund on its way' }).click();
    await page.getByText('Hello, about Refund for order 7: the refund is on its way.').waitFor();
    const comments = await server.call<CommentShape[]>('GET', `/v1/tickets/${ticket.id}/comments`);
    expect(comments.map((comment) => comment.content)).toContain('Hello, about Refund for order 7: the refund is on its way.');
    expect((await server.call<{ priority: string }>('GET', `/v1/tickets/${ticket.id}`)).priority).toBe('High');
    expect(adminConsole.foreignRequests).toEqual([]);
    expect(pageFailures(adminConsole)).toEqual([]);
  });

  it('an admin shares a view of two filters with a team: a too-long name is refused beside the field, then its agent sees it with its count', {
    timeout: 60_000,
  }, async () => {
    await createTicket(server, teamId, { title: 'Charged twice', priorityName: 'Urgent' });
    await createTicket(server, teamId, { title: 'Invoice copy', priorityName: 'Low' });
    await createTicket(server, teamId, { title: 'Old dispute', priorityName: 'Urgent', statusName: 'Closed' });
    const { page } = adminConsole;
    await page.goto('/app/settings/views');
    await page.getByText('No saved views yet').waitFor();
    await page.getByRole('link', { name: 'New view' }).click();

    const name = page.getByRole('textbox', { name: 'Name' });
    await name.fill('Urgent billing '.repeat(7));
    await page.getByLabel('Shared with').selectOption({ label: 'Billing' });
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Any open status' });
    await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'Urgent' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('name must be at most 100 characters long').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.inputValue()).toBe('Urgent billing '.repeat(7));
    expect((await server.call<{ isBuiltIn: boolean }[]>('GET', '/v1/views')).filter((view) => !view.isBuiltIn)).toEqual([]);
    expect(await accessibilityProblems(page)).toEqual([]);

    await name.fill('Urgent billing');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'View: Urgent billing' }).waitFor();
    await page.getByRole('status').getByText('1 ticket', { exact: true }).waitFor();

    // On a phone, in the dark: the editor fits the width and stays readable.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await overflowsSideways(page)).toBe(false);
    expect(await accessibilityProblems(page)).toEqual([]);

    const agentConsole = await openSignedIn(browser, server, agent);
    const link = agentConsole.page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /^Urgent billing/ });
    expect(await link.textContent()).toMatch(/1\s*tickets$/);
    expect([...adminConsole.foreignRequests, ...agentConsole.foreignRequests]).toEqual([]);
    expect([...pageFailures(adminConsole), ...pageFailures(agentConsole)]).toEqual([]);
  });
});
