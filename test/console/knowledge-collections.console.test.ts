import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, pressWhenEnabled, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface CollectionShape {
  _id: string;
  name: string;
  parentId: string | null;
  order: number;
  icon: string;
  description: string | null;
  isProtected: boolean;
  meta: { title: string | null; description: string | null; image: string | null };
}

interface HelpCenterShape {
  _id: string;
  name: string;
  slug: string;
  theme: { primaryColor: string };
}

/** Drags a collection by its handle: `dx` to the right (a level per 28 px), `dy` down. */
async function drag(page: Page, name: string, dx: number, dy: number) {
  const box = await page.getByRole('button', { name: `Reorder ${name}` }).boundingBox();
  if (!box) {
    throw new Error(`no handle for ${name}`);
  }
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 6, y + 2, { steps: 2 });
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
}

/** How far down `target`'s row is from `name`'s, so a drag lands over it. */
async function rowOffset(page: Page, name: string, target: string) {
  const from = await page.getByRole('listitem', { name, exact: true }).boundingBox();
  const to = await page.getByRole('listitem', { name: target, exact: true }).boundingBox();
  if (!from || !to) {
    throw new Error(`no rows for ${name} and ${target}`);
  }
  return to.y + to.height / 2 - (from.y + from.height / 2);
}

/** A 1×1 PNG, for the logo. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The page's own scrolling box (in the shell's main column) is no wider than the screen. */
const PAGE_BOX_FITS = `(() => {
  const box = document.querySelector('main > div');
  return box !== null && box.scrollWidth <= box.clientWidth;
})()`;

describe('the Knowledge area: help centers and the collections tree (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let lea: Agent;
  let session: ConsolePage;
  let helpCenterId: string;

  const collections = () => server.call<CollectionShape[]>('GET', `/collections?helpCenterId=${helpCenterId}`);
  /** The tree as `name < parent #order`, in the API's listing order. */
  const shape = async () => {
    const all = await collections();
    const names = new Map(all.map((collection) => [collection._id, collection.name]));
    return all.map((collection) => `${collection.name} < ${names.get(collection.parentId ?? '') ?? 'top'} #${collection.order}`);
  };
  const untilShape = (expected: string[], what: string) =>
    until(async () => ((await shape()).join('|') === expected.join('|') ? true : undefined), what);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    lea = await inviteAgent(server, { name: 'Lea Lead', email: 'lea@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, lea);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin starts a help center and a collection from the top bar, and the API holds exactly that', {
    timeout: 30_000,
  }, async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
    await page.getByText('No help centers yet').waitFor();
    await page.getByRole('button', { name: 'New help center' }).click();
    const create = page.getByRole('form', { name: 'New help center' });
    await create.getByRole('textbox', { name: 'Name' }).fill('Acme Help');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Acme Help', level: 1 }).waitFor();
    const [helpCenter, ...others] = await server.call<HelpCenterShape[]>('GET', '/help-centers');
    expect(others).toEqual([]);
    helpCenterId = helpCenter?._id ?? '';
    expect(helpCenter).toMatchObject({ name: 'Acme Help', slug: 'acme-help' });
    await page.getByText('No collections yet').waitFor();

    await page.getByRole('button', { name: 'New collection' }).click();
    const form = page.getByRole('form', { name: 'New collection' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Getting started');
    await form.getByRole('textbox', { name: 'Description', exact: true }).fill('First steps with Acme');
    await form.getByRole('radio', { name: 'Rocket' }).check();
    await form.getByRole('checkbox', { name: 'Only for signed-in customers' }).check();
    await form.getByRole('textbox', { name: 'Meta title' }).fill('Start here');
    await form.getByRole('textbox', { name: 'Meta image URL' }).fill('https://cdn.acme.test/start.png');
    expect(await accessibilityProblems(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('listitem', { name: 'Getting started' }).waitFor();
    expect(await collections()).toEqual([
      expect.objectContaining({
        name: 'Getting started',
        parentId: null,
        order: 1,
        icon: 'rocket',
        description: 'First steps with Acme',
        isProtected: true,
        meta: { title: 'Start here', description: null, image: 'https://cdn.acme.test/start.png' },
      }),
    ]);

    // Edited with a bad image address: the API's words beside the field, the dialog keeps what was typed, nothing written.
    await page.getByRole('button', { name: 'Edit Getting started' }).click();
    const edit = page.getByRole('form', { name: 'Edit collection Getting started' });
    expect(await edit.getByRole('textbox', { name: 'Meta title' }).inputValue()).toBe('Start here');
    expect(await edit.getByRole('radio', { name: 'Rocket' }).isChecked()).toBe(true);
    await edit.getByRole('textbox', { name: 'Name' }).fill('First steps');
    const image = edit.getByRole('textbox', { name: 'Meta image URL' });
    await image.fill('javascript:alert(1)');
    await edit.getByRole('button', { name: 'Save collection' }).click();
    await until(async () => ((await image.getAttribute('aria-invalid')) === 'true' ? true : undefined), 'the image refused');
    const problem = await page.locator(`[id="${await image.getAttribute('id')}-error"]`).textContent();
    expect(problem).toMatch(/^meta\.image /);
    expect(await edit.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('First steps');
    expect((await collections()).map((collection) => [collection.name, collection.meta.image])).toEqual([
      ['Getting started', 'https://cdn.acme.test/start.png'],
    ]);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expect(pageFailures(session)).toEqual([]);
  });

  it('builds the tree by dragging and by keyboard; the API holds the parents and order as built', {
    timeout: 40_000,
  }, async () => {
    const { page } = session;
    for (const name of ['Billing', 'Invoices', 'Refunds']) {
      await server.call('POST', '/collections', { helpCenterId, name });
    }
    await page.reload();
    await page.getByRole('listitem', { name: 'Refunds' }).waitFor();

    // Invoices dragged right where it is: inside Billing, the collection above it.
    await drag(page, 'Invoices', 40, 0);
    await untilShape(
      ['Getting started < top #1', 'Billing < top #2', 'Refunds < top #3', 'Invoices < Billing #1'],
      'Invoices inside Billing',
    );
    // Refunds dragged up over Getting started: first at the top level.
    await page.getByRole('listitem', { name: 'Invoices' }).getByText('Level 2').waitFor({ state: 'attached' });
    await drag(page, 'Refunds', 0, await rowOffset(page, 'Refunds', 'Getting started'));
    await untilShape(
      ['Refunds < top #1', 'Getting started < top #2', 'Billing < top #3', 'Invoices < Billing #1'],
      'Refunds first',
    );

    // By keyboard: Refunds down twice (after Billing), into Billing (after Invoices), then Billing up to the top.
    await page.getByRole('listitem', { name: 'Refunds' }).getByText('Level 1').waitFor({ state: 'attached' });
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Refunds down' }));
    await untilShape(
      ['Getting started < top #1', 'Refunds < top #2', 'Billing < top #3', 'Invoices < Billing #1'],
      'Refunds second',
    );
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Refunds down' }));
    await untilShape(
      ['Getting started < top #1', 'Billing < top #2', 'Refunds < top #3', 'Invoices < Billing #1'],
      'Refunds last',
    );
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Refunds into Billing' }));
    await untilShape(
      ['Getting started < top #1', 'Billing < top #2', 'Invoices < Billing #1', 'Refunds < Billing #2'],
      'Refunds inside Billing',
    );
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Refunds into Invoices' }));
    await untilShape(
      ['Getting started < top #1', 'Billing < top #2', 'Invoices < Billing #1', 'Refunds < Invoices #1'],
      'Refunds inside Invoices',
    );
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Refunds out of Invoices' }));
    await untilShape(
      ['Getting started < top #1', 'Billing < top #2', 'Invoices < Billing #1', 'Refunds < Billing #2'],
      'Refunds back after Invoices',
    );
    await pressWhenEnabled(page.getByRole('button', { name: 'Move Billing up' }));
    await untilShape(
      ['Billing < top #1', 'Getting started < top #2', 'Invoices < Billing #1', 'Refunds < Billing #2'],
      'Billing first',
    );
    await page.getByText('Moved Billing to the top level, position 1.').waitFor({ state: 'attached' });

    // The drag handle by keyboard: Space picks Refunds up, ArrowUp takes it over Invoices, Space drops it there.
    const handle = page.getByRole('button', { name: 'Reorder Refunds' });
    await until(async () => ((await handle.isEnabled()) ? true : undefined), 'the handle enabled');
    await handle.focus();
    const announced = (text: string) => page.getByText(text, { exact: true }).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await announced('Refunds is over row 3.');
    // dnd-kit listens for the arrows from a task of its own after the pick-up: pressed again until the move is heard.
    const overInvoices = page.getByText('Refunds is over row 2.', { exact: true });
    for (let press = 0; press < 5 && (await overInvoices.count()) === 0; press += 1) {
      await page.keyboard.press('ArrowUp');
      await overInvoices.waitFor({ state: 'attached', timeout: 2_000 }).catch(() => undefined);
    }
    await page.keyboard.press('Space');
    await untilShape(
      ['Billing < top #1', 'Getting started < top #2', 'Refunds < Billing #1', 'Invoices < Billing #2'],
      'Refunds before Invoices',
    );

    // Only an empty collection goes: Billing's refusal is the API's message; Getting started goes after asking.
    await page.getByRole('button', { name: 'Delete Billing' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete collection' }).click();
    await page.getByText('Collection still holds 2 sub-collections; move or delete them first').waitFor();
    await page.getByRole('button', { name: 'Delete Getting started' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete collection' }).click();
    await untilShape(['Billing < top #1', 'Refunds < Billing #1', 'Invoices < Billing #2'], 'Getting started deleted');
    await page.getByRole('listitem', { name: 'Getting started' }).waitFor({ state: 'detached' });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('the Knowledge pages read well on a phone in dark mode, and a help center that is not there says so', {
    timeout: 40_000,
  }, async () => {
    const phone = await openSignedIn(browser, server, lea, { viewport: { width: 390, height: 844 } });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    const { page } = phone;
    const pages = [
      ['/app/knowledge', page.getByRole('link', { name: 'Acme Help' })],
      [`/app/knowledge/${helpCenterId}`, page.getByRole('listitem', { name: 'Invoices' })],
    ] as const;
    for (const [path, ready] of pages) {
      await page.goto(path);
      await ready.waitFor();
      expect(await accessibilityProblems(page), path).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), path).toBe(true);
      // The shell clips its main column and the page scrolls in its own box: that box must not scroll sideways either.
      expect(await page.evaluate(PAGE_BOX_FITS), path).toBe(true);
    }
    await page.goto('/app/knowledge/0123456789abcdef01234567');
    await page.getByRole('alert').getByText('Help center not found').waitFor();
    expect(phone.foreignRequests).toEqual([]);
    expect(pageFailures(phone).filter((error) => !error.includes('404'))).toEqual([]);
    await phone.context.close();
  });

  it('a member reads the tree, without the means to change it', { timeout: 30_000 }, async () => {
    const max = await inviteAgent(server, { name: 'Max Member', email: 'max@acme.test' });
    const member = await openSignedIn(browser, server, max);
    const { page } = member;
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('link', { name: 'Acme Help' }).click();
    await page.getByRole('listitem', { name: 'Invoices' }).waitFor();
    for (const name of ['New collection', 'Reorder Invoices', 'Move Invoices up', 'Edit Invoices', 'Delete Invoices']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByRole('form', { name: 'Help center settings' }).count()).toBe(0);
    expect(pageFailures(member)).toEqual([]);
    await member.context.close();
  });

  it("a bad slug shows the API's message beside it and writes nothing; a good one saves", { timeout: 30_000 }, async () => {
    const { page } = session;
    const settings = page.getByRole('form', { name: 'Help center settings' });
    await settings.getByRole('textbox', { name: 'Name' }).fill('Acme Support');
    await settings.getByRole('textbox', { name: 'Slug' }).fill('Not A Slug!');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText(/slug has an invalid format/).waitFor();
    const slug = settings.getByRole('textbox', { name: 'Slug' });
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    expect(await slug.inputValue()).toBe('Not A Slug!');
    expect(await server.call('GET', `/help-centers/${helpCenterId}`)).toMatchObject({ name: 'Acme Help', slug: 'acme-help' });

    await slug.fill('support');
    await settings.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#0F766E');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved').waitFor();
    expect(await server.call('GET', `/help-centers/${helpCenterId}`)).toMatchObject({
      name: 'Acme Support',
      slug: 'support',
      theme: { primaryColor: '#0f766e' },
    });
    await page.getByRole('heading', { name: 'Acme Support', level: 1 }).waitFor();

    // The logo: an image uploaded as an attachment, then saved as the help center's.
    await settings.getByLabel('Logo').setInputFiles({ name: 'acme-logo.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await settings.getByText('New logo: acme-logo.png').waitFor();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved').waitFor();
    const saved = await server.call<{ theme: { logoAttachmentId: string | null } }>('GET', `/help-centers/${helpCenterId}`);
    const logo = await server.call<{ fileName: string; contentType: string }>(
      'GET',
      `/v1/attachments/${saved.theme.logoAttachmentId}/metadata`,
    );
    expect(logo).toMatchObject({ fileName: 'acme-logo.png', contentType: 'image/png' });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
