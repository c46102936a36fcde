import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, pressWhenEnabled, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface RuleShape {
  id: string;
  name: string;
  evaluationOrder: number;
  resultTeamId: string;
  andRules: string[];
  orRules: string[];
}

describe('routing settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let ada: Agent;
  let session: ConsolePage;
  let frontDesk: string;
  let billing: string;

  const rulesOf = (teamId: string) => server.call<RuleShape[]>('GET', `/v1/teams/${teamId}/routing`);
  const openRouting = async (page: Page, teamId?: string) => {
    await page.goto(teamId ? `/app/settings/routing?teamId=${teamId}` : '/app/settings/routing');
    await page.getByRole('heading', { name: 'Routing', level: 1 }).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    frontDesk = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Front desk', identifier: 'DESK' })).id;
    billing = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Billing', identifier: 'BILL' })).id;
    await server.call('POST', `/v1/teams/${billing}/members`, { userId: ada.id });
    await server.call('PATCH', `/v1/users/${ada.id}`, { status: 'online' });
    await server.call('PATCH', `/v1/teams/${billing}/configurations`, { userRoutingStrategy: 'round_robin' });
    session = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin builds a rule "priority is High and title contains refund → Billing", tests a sample ticket, and a new ticket lands in Billing with its routing history', {
    timeout: 60_000,
  }, async () => {
    const { page } = session;
    await openRouting(page);
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'Front desk' });
    await page.getByText('This team has no routing rules').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();

    const builder = page.getByRole('form', { name: 'New rule' });
    await builder.getByRole('textbox', { name: 'Name' }).fill('Urgent refunds');
    const all = builder.getByRole('group', { name: 'All of these conditions' });
    await all.getByRole('button', { name: 'Add a condition to all' }).click();
    const priority = all.getByRole('listitem', { name: 'Condition 1' });
    await priority.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Priority' });
    await priority.getByRole('combobox', { name: 'Value' }).selectOption({ label: 'High' });
    await all.getByRole('button', { name: 'Add a condition to all' }).click();
    const title = all.getByRole('listitem', { name: 'Condition 2' });
    await title.getByRole('textbox', { name: 'Value' }).fill('refund');
    await builder.getByRole('combobox', { name: 'Result team' }).selectOption({ label: 'Billing' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await builder.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('listitem', { name: '1. Urgent refunds' }).waitFor();
    expect(page.url()).toContain(`teamId=${frontDesk}`);
    const [rule] = await rulesOf(frontDesk);
    expect(rule).toMatchObject({ name: 'Urgent refunds', resultTeamId: billing, orRules: [] });
    expect(rule?.andRules.map((text) => JSON.parse(text))).toEqual([
      { field: 'priority', operator: 'equals', value: expect.stringMatching(/^high$/i) },
      { field: 'title', operator: 'contains', value: 'refund' },
    ]);

    // A sample ticket: the page explains which rule matched, each condition, and who would get it.
    await page.getByRole('button', { name: 'Test a ticket' }).click();
    const sample = page.getByRole('form', { name: 'Sample ticket' });
    await sample.getByRole('textbox', { name: 'Sample title' }).fill('Refund for order 7');
    await sample.getByRole('combobox', { name: 'Sample priority' }).selectOption({ label: 'High' });
    await sample.getByRole('button', { name: 'Run test' }).click();
    const result = page.getByRole('region', { name: 'Test result' });
    await result.getByText('Rule “Urgent refunds” matched: the ticket goes to Billing.').waitFor();
    const step = result.getByRole('listitem', { name: '1. Urgent refunds: Matched' });
    await step.getByText('All: Priority is "High" — holds').waitFor();
    await step.getByText('All: Title contains "refund" — holds').waitFor();
    await result.getByText('Round robin would pick Admin.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // A real ticket, routed on creation, lands in Billing; its page tells why.
    const ticket = await server.call<{ id: string; teamId: string }>('POST', '/v1/tickets', {
      title: 'Please refund my order',
      requestorEmail: 'pat@customer.test',
      teamId: frontDesk,
      priorityName: 'high',
      performRouting: true,
    });
    expect(ticket.teamId).toBe(billing);
    await page.goto(`/app/tickets/${ticket.id}`);
    const routing = page.getByRole('region', { name: 'Routing' });
    await routing.getByRole('button', { name: 'Routing' }).click();
    await routing.getByText('Rule “Urgent refunds” sent it to').waitFor();
    await routing.getByText('Admin, assigned by round robin.').waitFor();
    expect(await accessibilityProblems(page, 'section[aria-label="Routing"]')).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('reorders by keyboard and Move up, one request a move; a refused order goes back', { timeout: 40_000 }, async () => {
    const team = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Sorting', identifier: 'SORT' })).id;
    for (const name of ['First rule', 'Second rule']) {
      await server.call('POST', `/v1/teams/${team}/routing`, { name, resultTeamId: billing });
    }
    const { page } = session;
    await openRouting(page, team);
    // Each move is one request with the whole order: no PATCH of single rules.
    const writes: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() !== 'GET' && request.url().includes(`/v1/teams/${team}/routing`)) {
        writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
      }
    };
    page.on('request', onRequest);
    const handle = page.getByRole('button', { name: 'Reorder First rule' });
    await handle.focus();
    // Each key waits for what a screen reader hears, so the next one lands on the drag it belongs to.
    const announced = (text: string) => page.getByText(text, { exact: true }).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await announced('First rule is over position 1.');
    // dnd-kit listens for the arrows from a task of its own after the pick-up; an arrow that came
    // first moved nothing, so it is pressed again until the move is heard (the last of two: a no-op).
    const overTwo = page.getByText('First rule is over position 2.', { exact: true });
    for (let press = 0; press < 5 && (await overTwo.count()) === 0; press += 1) {
      await page.keyboard.press('ArrowDown');
      await overTwo.waitFor({ state: 'attached', timeout: 2_000 }).catch(() => undefined);
    }
    await announced('First rule is over position 2.');
    await page.keyboard.press('Space');
    const names = async () => (await rulesOf(team)).map((rule) => rule.name);
    await until(async () => ((await names()).join() === 'Second rule,First rule' ? true : undefined), 'the new order');
    await page.getByRole('listitem', { name: '1. Second rule' }).waitFor();

    // The buttons do the same, for those who prefer them. They are disabled until the page has the
    // answer to the move before (the API may have the new order first), so Enter waits for that.
    await pressWhenEnabled(page.getByRole('button', { name: 'Move First rule up' }));
    await until(async () => ((await names()).join() === 'First rule,Second rule' ? true : undefined), 'the order restored');
    await page.getByRole('listitem', { name: '1. First rule' }).waitFor();
    page.off('request', onRequest);
    const reorder = `POST /v1/teams/${team}/routing/reorder`;
    expect(writes).toEqual([reorder, reorder]);
    expect((await rulesOf(team)).map((rule) => rule.evaluationOrder)).toEqual([0, 1]);

    // A rule added elsewhere since the page read the list: the API refuses the order that leaves it
    // out, the page says why and shows the order as it was, then the team's rules as they are.
    await openRouting(page, team);
    await page.getByRole('listitem', { name: '2. Second rule' }).waitFor();
    await server.call('POST', `/v1/teams/${team}/routing`, { name: 'Third rule', resultTeamId: billing });
    await page.getByRole('button', { name: 'Move Second rule up' }).press('Enter');
    await page.getByRole('alert').getByText('ruleIds must name every routing rule of the team exactly once').waitFor();
    await page.getByRole('listitem', { name: '3. Third rule' }).waitFor();
    await page.getByRole('listitem', { name: '1. First rule' }).waitFor();
    expect(await names()).toEqual(['First rule', 'Second rule', 'Third rule']);
    expect(pageFailures(session)).toEqual([]);
  });

  it("a refused condition shows the API's message beside it and writes nothing", { timeout: 40_000 }, async () => {
    const { page } = session;
    await openRouting(page, frontDesk);
    await page.getByRole('button', { name: 'New rule' }).click();
    const builder = page.getByRole('form', { name: 'New rule' });
    await builder.getByRole('textbox', { name: 'Name' }).fill('Too long');
    const any = builder.getByRole('group', { name: 'Any of these conditions' });
    await any.getByRole('button', { name: 'Add a condition to any' }).click();
    const condition = any.getByRole('listitem', { name: 'Condition 1' });
    await condition.getByRole('textbox', { name: 'Value' }).fill('x'.repeat(2100));
    await builder.getByRole('combobox', { name: 'Result team' }).selectOption({ label: 'Billing' });
    await builder.getByRole('button', { name: 'Save' }).click();
    const message = condition.getByText('orRules.0 must be at most 2000 characters long');
    await message.waitFor();
    expect(await condition.getByRole('textbox', { name: 'Value' }).getAttribute('aria-invalid')).toBe('true');
    expect(await builder.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Too long');
    expect((await rulesOf(frontDesk)).map((rule) => rule.name)).toEqual(['Urgent refunds']);
    expect(pageFailures(session)).toEqual([]);
  });
});
