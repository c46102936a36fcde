import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import type { ConsolePage } from './browser.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface NoteShape {
  id: string;
  content: string;
  attachments: string[];
}

/** The settings page's own scrolling box (beside the settings rail) is no wider than the screen. */
const PAGE_BOX_FITS = `(() => {
  const box = document.querySelector('nav[aria-label="Settings"] + div');
  return box !== null && box.scrollWidth <= box.clientWidth;
})()`;

describe('account and contact settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let session: ConsolePage;
  let teamId: string;
  let accountId: string;
  let ada: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    teamId = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Success', identifier: 'SUC' })).id;
    accountId = (await server.call<{ id: string }>('POST', '/v1/accounts', { name: 'Globex', primaryDomain: 'globex.test' })).id;
    ada = await inviteAgent(server, { name: 'Ada Admin', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const status = async (path: string) =>
    (await fetch(`${server.origin}${path}`, { headers: { 'x-api-key': server.apiKey } })).status;

  it('an admin adds a note with a file to an account, removes the file, deletes the note, then the account', {
    timeout: 60_000,
  }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'note-file-')), 'renewal-terms.txt');
    writeFileSync(file, 'Renewal at 10% off.\n');
    const { page } = session;
    await page.goto('/app/settings/accounts');
    await page.getByRole('link', { name: /Globex/ }).click();
    await page.getByRole('heading', { name: 'Globex', level: 1 }).waitFor();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'Note' }).fill('Renewal due in **March**.');
    await notes.getByRole('tab', { name: 'Preview' }).click();
    await notes.getByRole('region', { name: 'Preview' }).getByText('March').waitFor();
    await notes.getByLabel('Files').setInputFiles(file);
    await notes.getByRole('button', { name: 'Add note' }).click();
    const note = notes.getByRole('article', { name: 'Note by Ada Admin' });
    await note.getByRole('link', { name: 'renewal-terms.txt' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    const [saved] = await server.call<NoteShape[]>('GET', `/v1/accounts/notes?accountId=${accountId}`);
    expect(saved?.content).toBe('Renewal due in **March**.');
    expect(saved?.attachments).toHaveLength(1);

    await note.getByRole('button', { name: 'Remove attachment renewal-terms.txt' }).click();
    await until(
      async () => ((await note.getByRole('link', { name: 'renewal-terms.txt' }).count()) === 0 ? true : undefined),
      'the file gone',
    );
    const after = await server.call<NoteShape>('GET', `/v1/accounts/notes/${saved?.id}`);
    expect(after.attachments).toEqual([]);

    // The note, then the account, each deleted after a confirmation.
    await note.getByRole('button', { name: /^Delete note of / }).click();
    await page.getByRole('dialog', { name: 'Delete this note?' }).getByRole('button', { name: 'Delete note' }).click();
    await notes.getByText('No notes yet').waitFor();
    expect(await status(`/v1/accounts/notes/${saved?.id}`)).toBe(404);
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Globex?' });
    await dialog.getByText('Its contacts and their tickets stay').waitFor();
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    expect(await status(`/v1/accounts/${accountId}`)).toBe(404);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('the contact page lists the contact’s tickets, and deletes the contact after a confirmation', {
    timeout: 60_000,
  }, async () => {
    const contact = await server.call<{ id: string }>('POST', '/v1/accounts/contacts', {
      firstName: 'Pat',
      lastName: 'Customer',
      email: 'pat@globex.test',
    });
    await server.call('POST', '/v1/tickets', {
      title: 'Invoice is wrong',
      teamId,
      requestorEmail: 'pat@globex.test',
      performRouting: false,
    });
    const { page } = session;
    await page.goto('/app/settings/contacts');
    await page.getByRole('link', { name: /Pat Customer/ }).click();
    await page.getByRole('heading', { name: 'Pat Customer', level: 1 }).waitFor();
    await page
      .getByRole('region', { name: 'Tickets' })
      .getByRole('link', { name: /Invoice is wrong/ })
      .waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Delete contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Pat Customer?' });
    await dialog.getByRole('button', { name: 'Delete contact' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    expect(await status(`/v1/accounts/contacts/${contact.id}`)).toBe(404);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('the account pages read well on a phone in dark mode', { timeout: 60_000 }, async () => {
    const account = await server.call<{ id: string }>('POST', '/v1/accounts', {
      name: 'Initech International Holdings',
      primaryDomain: 'initech-international-holdings.test',
    });
    await server.call('POST', '/v1/accounts/notes', { accountId: account.id, content: 'Renewal talks start in **May**.' });
    const phone = await openSignedIn(browser, server, ada, { viewport: { width: 390, height: 844 } });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    const { page } = phone;
    const pages = [
      ['/app/settings/accounts', page.getByRole('link', { name: /Initech/ })],
      [`/app/settings/accounts/${account.id}`, page.getByRole('article', { name: /^Note by / })],
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
