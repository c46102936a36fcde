import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface PolicyShape {
  id: string;
  name: string;
  description: string | null;
  position: number;
  andRules: string[];
  orRules: string[];
  targets: Record<string, Record<string, number>>;
  businessHours: boolean;
  aiRepliesCount: boolean;
  warningShare: number;
}

interface OptionShape {
  id: string;
  name: string;
  displayName: string;
  pausesSla: boolean;
}

describe('SLA policies, survey and status settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let ada: Agent;
  let session: ConsolePage;
  let support: string;

  const policies = () => server.call<PolicyShape[]>('GET', '/v1/sla-policies');
  const openPolicies = async (page: Page) => {
    await page.goto('/app/settings/sla-policies');
    await page.getByRole('heading', { name: 'SLA policies', level: 1 }).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    support = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' })).id;
    session = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin creates a policy with a condition and targets through the form, and the API holds exactly that', {
    timeout: 40_000,
  }, async () => {
    const { page } = session;
    await openPolicies(page);
    await page.getByText('There are no SLA policies yet').waitFor();
    await page.getByRole('button', { name: 'New policy' }).click();

    const form = page.getByRole('form', { name: 'New SLA policy' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Support desk');
    const all = form.getByRole('group', { name: 'All of these conditions' });
    await all.getByRole('button', { name: 'Add a condition to all' }).click();
    const team = all.getByRole('listitem', { name: 'Condition 1' });
    await team.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Team' });
    await team.getByRole('combobox', { name: 'Value' }).selectOption({ label: 'Support' });
    await form.getByRole('textbox', { name: 'Urgent first reply' }).fill('30 min');
    await form.getByRole('textbox', { name: 'Urgent resolution' }).fill('1 d 2 h');
    await form.getByRole('textbox', { name: 'High first reply' }).fill('1 h 30 min');
    await form.getByRole('radio', { name: 'Calendar time' }).check();
    await form.getByRole('checkbox', { name: "An AI agent's public reply meets a reply target" }).check();
    await form.getByRole('textbox', { name: 'Warn at (% of the target)' }).fill('80');
    expect(await accessibilityProblems(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save' }).click();

    const card = page.getByRole('listitem', { name: '1. Support desk' });
    await card.getByText('Team is "Support"').waitFor();
    await card.getByText('Urgent: first reply 30 min, resolution 1 d 2 h').waitFor();
    const [policy, ...others] = await policies();
    expect(others).toEqual([]);
    expect(policy).toEqual({
      id: expect.any(String),
      createdById: ada.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      name: 'Support desk',
      description: null,
      position: 0,
      andRules: [JSON.stringify({ field: 'teamId', operator: 'equals', value: support })],
      orRules: [],
      targets: { urgent: { firstReply: 30, resolution: 1560 }, high: { firstReply: 90 } },
      businessHours: false,
      aiRepliesCount: true,
      warningShare: 0.8,
    });
    // Opened again, the form shows what was saved, in the same words.
    await card.getByRole('button', { name: 'Edit Support desk' }).click();
    const edit = page.getByRole('form', { name: 'Edit policy Support desk' });
    expect(await edit.getByRole('textbox', { name: 'Urgent resolution' }).inputValue()).toBe('1 d 2 h');
    expect(await edit.getByRole('radio', { name: 'Calendar time' }).isChecked()).toBe(true);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await card.waitFor();
    expect(pageFailures(session)).toEqual([]);
  });

  it("a reply target longer than the resolution shows the API's message in its cell and writes nothing", {
    timeout: 30_000,
  }, async () => {
    const { page } = session;
    await openPolicies(page);
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New SLA policy' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Backwards');
    await form.getByRole('textbox', { name: 'Low next reply' }).fill('2 h');
    await form.getByRole('textbox', { name: 'Low resolution' }).fill('1 h');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('targets.low.nextReply (120) must not exceed targets.low.resolution (60)').waitFor();
    expect(await form.getByRole('textbox', { name: 'Low next reply' }).getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Backwards');
    expect((await policies()).map((policy) => policy.name)).toEqual(['Support desk']);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('listitem', { name: '1. Support desk' }).waitFor();
    expect(pageFailures(session)).toEqual([]);
  });

  it('reorders two policies by keyboard, one request with the whole order, and deletes one after asking', {
    timeout: 30_000,
  }, async () => {
    await server.call('POST', '/v1/sla-policies', { name: 'Everyone else', targets: { low: { resolution: 2880 } } });
    const { page } = session;
    await openPolicies(page);
    await page.getByRole('listitem', { name: '2. Everyone else' }).waitFor();
    const writes: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() !== 'GET' && request.url().includes('/v1/sla-policies')) {
        writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
      }
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: 'Reorder Support desk' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Support desk is over position 1.', { exact: true }).waitFor({ state: 'attached' });
    // dnd-kit listens for the arrows from a task of its own after the pick-up (see the routing test).
    const overTwo = page.getByText('Support desk is over position 2.', { exact: true });
    for (let press = 0; press < 5 && (await overTwo.count()) === 0; press += 1) {
      await page.keyboard.press('ArrowDown');
      await overTwo.waitFor({ state: 'attached', timeout: 2_000 }).catch(() => undefined);
    }
    await overTwo.waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    const names = async () => (await policies()).map((policy) => policy.name).join();
    await until(async () => ((await names()) === 'Everyone else,Support desk' ? true : undefined), 'the new order');
    await page.getByRole('listitem', { name: '1. Everyone else' }).waitFor();
    page.off('request', onRequest);
    expect(writes).toEqual(['POST /v1/sla-policies/reorder']);
    expect((await policies()).map((policy) => policy.position)).toEqual([0, 1]);
    expect(await accessibilityProblems(page)).toEqual([]);

    // Deleting asks first, and names what goes.
    await page.getByRole('button', { name: 'Delete Everyone else' }).click();
    await page.getByRole('dialog', { name: 'Delete Everyone else?' }).getByRole('button', { name: 'Delete policy' }).click();
    await page.getByRole('listitem', { name: '1. Support desk' }).waitFor();
    expect((await policies()).map((policy) => policy.name)).toEqual(['Support desk']);
    expect(pageFailures(session)).toEqual([]);
  });

  it("sets the team's satisfaction survey and reads it back through the API; a refused cooldown writes nothing", {
    timeout: 30_000,
  }, async () => {
    await server.call('POST', `/v1/teams/${support}/tags`, { name: 'vip', type: 'ticket' });
    const tags = await server.call<{ items: { id: string; name: string }[] }>('GET', `/v1/teams/${support}/tags`);
    const vip = tags.items.find((tag) => tag.name === 'vip')?.id;
    const low = (await server.call<OptionShape[]>('GET', `/v1/tickets/priorities?teamId=${support}`)).find(
      (priority) => priority.displayName === 'Low',
    )?.id;
    const { page } = session;
    await page.goto(`/app/settings/teams/${support}?tab=satisfaction`);
    const form = page.getByRole('form', { name: 'Satisfaction survey' });
    await form.getByRole('checkbox', { name: 'Survey requestors when their ticket is closed' }).check();
    await form.getByRole('textbox', { name: 'Send after' }).fill('2 h');
    await form.getByRole('textbox', { name: 'Survey share (%)' }).fill('50');
    const cooldown = form.getByRole('textbox', { name: 'Cooldown (days)' });
    await cooldown.fill('400');
    await form.getByRole('group', { name: 'Never survey tickets tagged' }).getByRole('checkbox', { name: 'vip' }).check();
    await form.getByRole('group', { name: 'Never survey tickets of priority' }).getByRole('checkbox', { name: 'Low' }).check();
    const settings = () => server.call<Record<string, unknown>>('GET', `/v1/teams/${support}/satisfaction-settings`);
    await form.getByRole('button', { name: 'Save survey settings' }).click();
    await form.getByText('cooldownDays must be at most 365').waitFor();
    expect(await settings()).toMatchObject({ enabled: false, updatedAt: null });

    await cooldown.fill('14');
    await form.getByRole('button', { name: 'Save survey settings' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    expect(await settings()).toMatchObject({
      enabled: true,
      delayMinutes: 120,
      samplingShare: 0.5,
      cooldownDays: 14,
      skipWhen: { tagIds: [vip], priorityIds: [low] },
    });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('turns "Pauses SLA" of a status on and off, and renames one', { timeout: 30_000 }, async () => {
    const statuses = () => server.call<OptionShape[]>('GET', `/v1/tickets/statuses?teamId=${support}`);
    const pausing = async () => (await statuses()).filter((status) => status.pausesSla).map((status) => status.displayName);
    const { page } = session;
    await page.goto(`/app/settings/teams/${support}?tab=statuses`);
    const onHold = page.getByRole('listitem', { name: 'On hold' });
    const inProgress = page.getByRole('listitem', { name: 'In progress' });
    expect(await onHold.getByRole('switch', { name: 'Pauses SLA' }).isChecked()).toBe(true);
    await inProgress.getByRole('switch', { name: 'Pauses SLA' }).check();
    await until(async () => ((await pausing()).join() === 'In progress,On hold' ? true : undefined), 'In progress pausing');
    await onHold.getByRole('switch', { name: 'Pauses SLA' }).uncheck();
    await until(async () => ((await pausing()).join() === 'In progress' ? true : undefined), 'On hold no longer pausing');
    expect(await onHold.getByRole('switch', { name: 'Pauses SLA' }).isChecked()).toBe(false);

    const renamed = (await statuses()).find((status) => status.displayName === 'In progress')?.id;
    await inProgress.getByRole('textbox', { name: 'Display name of In progress' }).fill('Working on it');
    await inProgress.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('listitem', { name: 'Working on it' }).waitFor();
    expect((await statuses()).find((status) => status.id === renamed)).toMatchObject({
      displayName: 'Working on it',
      pausesSla: true,
    });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
