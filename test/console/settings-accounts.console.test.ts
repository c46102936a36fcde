import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteAgent, openSignedIn, until } from './agent-session.js';
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

describe('account and contact settings (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let session: ConsolePage;
  let teamId: string;
  let accountId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    teamId = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Success', identifier: 'SUC' })).id;
    accountId = (await server.call<{ id: string }>('POST', '/v1/accounts', { name: 'Globex', primaryDomain: 'globex.test' })).id;
    const ada = await inviteAgent(server, { name: 'Ada Admin', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    session = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin adds a note with a file to an account, then removes the file', { timeout: 60_000 }, async () => {
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
    const response = await fetch(`${server.origin}/v1/accounts/contacts/${contact.id}`, {
      headers: { 'x-api-key': server.apiKey },
    });
    expect(response.status).toBe(404);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
