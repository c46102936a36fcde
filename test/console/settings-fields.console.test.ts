import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import type { ConsolePage } from './browser.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface FieldShape {
  uid: string;
  name: string;
  version: number;
  hintText: string | null;
  updatedBy: string | null;
}

/** The settings page's own scrolling box (beside the settings rail) is no wider than the screen. */
const PAGE_BOX_FITS = `(() => {
  const box = document.querySelector('nav[aria-label="Settings"] + div');
  return box !== null && box.scrollWidth <= box.clientWidth;
})()`;

describe('custom field settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let ada: Agent;
  let session: ConsolePage;
  let teamId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    teamId = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Billing', identifier: 'BILL' })).id;
    ada = await inviteAgent(server, { name: 'Ada Admin', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin creates a dropdown field with choices, then sets it on a ticket from the ticket page', {
    timeout: 60_000,
  }, async () => {
    const { page } = session;
    await page.goto('/app/settings/custom-fields');
    await page.getByText('No custom fields yet').waitFor();
    await page.getByRole('button', { name: 'New field' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Customer plan');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('single_choice');
    for (const [index, choice] of ['Silver', 'Gold'].entries()) {
      await page.getByRole('button', { name: 'Add choice' }).click();
      await page.getByRole('textbox', { name: `Choice ${index + 1}` }).fill(choice);
    }
    // Gold first: its handle picked up with Space, moved up with the arrow key, dropped with Space.
    // Each key waits for the drag to take it (dnd-kit listens for the arrows a task after the pick-up,
    // and the drop lands where the last announcement says), so a busy machine does not lose one.
    const handle = page.getByRole('button', { name: 'Move Choice 2', exact: true });
    await handle.focus();
    await page.keyboard.press('Space');
    await until(async () => ((await handle.getAttribute('aria-pressed')) === 'true' ? true : undefined), 'Gold picked up');
    // dnd-kit starts listening for the arrows in a task of its own after the pick-up, which a busy
    // machine may run after the first arrow arrived: an arrow it did not take moves nothing, so it is
    // pressed again until the drag announces the move (Gold is one of two: a second move up is a no-op).
    const movedOver = async () => {
      const heard = await page.getByRole('status').filter({ hasText: 'was moved over droppable area' }).allTextContents();
      const [, item, area] = /item (\S+) was moved over droppable area (\S+)\./.exec(heard.join(' ')) ?? [];
      return item && area && item !== area ? true : undefined;
    };
    for (let press = 0; press < 5 && !(await movedOver()); press += 1) {
      await page.keyboard.press('ArrowUp');
      await until(movedOver, 'Gold over Silver', 2_000).catch(() => undefined);
    }
    await until(movedOver, 'Gold over Silver');
    await page.keyboard.press('Space');
    await until(
      async () => ((await page.getByRole('textbox', { name: 'Choice 1' }).inputValue()) === 'Gold' ? true : undefined),
      'Gold moved first',
    );
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create field' }).click();
    await page.getByRole('heading', { name: 'Customer plan' }).waitFor();
    const [field] = await server.call<(FieldShape & { options: string[] })[]>('GET', '/v1/custom-field/search?searchTerm=plan');
    expect(field?.options).toEqual(['Gold', 'Silver']);

    const ticket = await server.call<{ id: string }>('POST', '/v1/tickets', {
      title: 'Upgrade please',
      teamId,
      requestorEmail: 'pat@customer.test',
      performRouting: false,
    });
    await page.goto(`/app/tickets/${ticket.id}`);
    await page.getByRole('combobox', { name: 'Customer plan' }).selectOption('Gold');
    await until(async () => {
      const saved = await server.call<{ customFieldValues: { fieldId: string; value: unknown }[] }>(
        'GET',
        `/v1/tickets/${ticket.id}`,
      );
      return saved.customFieldValues.find((entry) => entry.fieldId === field?.uid && entry.value === 'Gold');
    }, 'the plan saved on the ticket');
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('a concurrent edit wins: the page says who changed what and reloads their version; a bad pattern shows the API’s words beside it', {
    timeout: 60_000,
  }, async () => {
    const field = await server.call<FieldShape>('POST', '/v1/custom-field', {
      name: 'Order number',
      source: 'ticket',
      fieldType: 'single_line',
    });
    const { page } = session;
    await page.goto(`/app/settings/custom-fields/${field.uid}`);
    const hint = page.getByRole('textbox', { name: 'Hint' });
    await hint.fill('Ours');
    // Meanwhile, someone else (the organization's first admin, through the API) saves first.
    const [theirs] = await server.call<FieldShape[]>('PATCH', '/v1/custom-field', {
      fields: [{ fieldId: field.uid, version: 1, updates: { hintText: 'Theirs' } }],
    });
    const them = await server.call<{ name: string }>('GET', `/v1/users/${theirs?.updatedBy}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`${them.name} changed this field while you were editing (now version 2): hint.`).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Reload' }).click();
    await until(async () => ((await hint.inputValue()) === 'Theirs' ? true : undefined), 'their hint shown');
    expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(0);

    const pattern = page.getByRole('textbox', { name: 'Validation pattern' });
    await pattern.fill('([a-z');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('regexForValidation must be a valid regular expression').waitFor();
    expect(await pattern.getAttribute('aria-invalid')).toBe('true');
    expect(await pattern.inputValue()).toBe('([a-z');
    const after = await server.call<FieldShape>('GET', `/v1/custom-field/${field.uid}`);
    expect([after.version, after.hintText]).toEqual([2, 'Theirs']);

    // Deleted after a confirmation (the unsaved pattern is not asked about), back to the list.
    await page.getByRole('button', { name: 'Delete field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Order number?' });
    await dialog.getByText('Values already saved stay stored on the tickets').waitFor();
    await dialog.getByRole('button', { name: 'Delete field' }).click();
    await page.getByRole('heading', { name: 'Custom fields', level: 1 }).waitFor();
    const gone = await fetch(`${server.origin}/v1/custom-field/${field.uid}`, { headers: { 'x-api-key': server.apiKey } });
    expect(gone.status).toBe(404);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('the field pages read well on a phone in dark mode', { timeout: 60_000 }, async () => {
    const field = await server.call<FieldShape>('POST', '/v1/custom-field', {
      name: 'Preferred contact window for urgent escalations',
      source: 'ticket',
      fieldType: 'single_choice',
      options: [{ value: 'Mornings' }, { value: 'Afternoons' }],
      teamId,
    });
    const phone = await openSignedIn(browser, server, ada, { viewport: { width: 390, height: 844 } });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    const { page } = phone;
    const pages = [
      ['/app/settings/custom-fields', page.getByRole('link', { name: /Preferred contact window/ })],
      [`/app/settings/custom-fields/${field.uid}`, page.getByRole('button', { name: 'Delete field' })],
      ['/app/settings/custom-fields/new', page.getByRole('button', { name: 'Create field' })],
    ] as const;
    for (const [path, ready] of pages) {
      await page.goto(path);
      await ready.waitFor();
      expect(await accessibilityProblems(page), path).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), path).toBe(true);
      // The shell clips its main column and a settings page scrolls in its own box: that box must not scroll sideways either.
      expect(await page.evaluate(PAGE_BOX_FITS), path).toBe(true);
    }
    expect(phone.foreignRequests).toEqual([]);
    expect(pageFailures(phone)).toEqual([]);
    await phone.context.close();
  });
});
