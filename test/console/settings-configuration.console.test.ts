import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

interface TeamConfiguration {
  timezone: string;
  userRoutingStrategy: string;
}

describe('configuration as code in the console (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let admin: Agent;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    admin = await inviteAgent(server, { name: 'Lea Lead', email: 'lea@acme.test', userType: 'ORG_ADMIN' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin exports the set-up, changes a team in the browser, and importing the export (after its preview) brings the team back', {
    timeout: 90_000,
  }, async () => {
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' });
    await server.call('PATCH', `/v1/teams/${team.id}/configurations`, {
      timezone: 'Europe/Paris',
      userRoutingStrategy: 'round_robin',
    });
    const session = await openSignedIn(browser, server, admin);
    const { page } = session;
    await page.goto('/app/settings/configuration');
    await page.getByRole('heading', { level: 1, name: 'Import and export' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^switchboard-.+-\d{4}-\d{2}-\d{2}\.json$/);
    const exportedPath = await download.path();
    const exported = JSON.parse(readFileSync(exportedPath, 'utf8'));
    expect(exported).toMatchObject({ version: 1, teams: [{ name: 'Support' }] });
    expect(JSON.stringify(exported)).not.toContain(team.id);

    // The team changes in the browser.
    await page.goto(`/app/settings/teams/${team.id}?tab=hours`);
    await page.getByLabel('Time zone').fill('America/New_York');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Saved.').waitFor();
    const changed = await server.call<TeamConfiguration>('GET', `/v1/teams/${team.id}/configurations`);
    expect(changed.timezone).toBe('America/New_York');

    // The export, imported: first what it would change, then "Apply".
    await page.goto('/app/settings/configuration');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import' }).click()]);
    await chooser.setFiles(exportedPath);
    const changes = page.getByRole('table', { name: 'Changes the file would make' });
    await changes.waitFor();
    expect(await changes.getByRole('row').count()).toBe(2); // the header and the team's configuration
    expect(await changes.getByRole('row').nth(1).textContent()).toMatch(/update.*Support.*timezone/);
    // Nothing is written until "Apply".
    expect((await server.call<TeamConfiguration>('GET', `/v1/teams/${team.id}/configurations`)).timezone).toBe(
      'America/New_York',
    );
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied 1 change.' }).waitFor();
    expect(await server.call<TeamConfiguration>('GET', `/v1/teams/${team.id}/configurations`)).toMatchObject({
      timezone: 'Europe/Paris',
      userRoutingStrategy: 'round_robin',
    });

    // The same file again changes nothing.
    const [again] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import' }).click()]);
    await again.setFiles(exportedPath);
    await page.getByText('No changes: this organization already holds what the file says.').waitFor();

    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
    await session.context.close();
  });

  it('a document of another version, or with a secret in it, is refused whole with its problems, and nothing is written', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, admin, { viewport: { width: 390, height: 844 } });
    const { page } = session;
    await page.goto('/app/settings/configuration');
    const before = await server.call<unknown>('GET', '/v1/config/export');
    const refuse = async (name: string, document: unknown): Promise<string[]> => {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Import' }).click(),
      ]);
      await chooser.setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document)) });
      const alert = page.getByRole('alert').filter({ hasText: 'The file was refused (400); nothing was written.' });
      await alert.getByRole('listitem').first().waitFor();
      return alert.getByRole('listitem').allTextContents();
    };
    // Another version is refused before anything else is read.
    expect(await refuse('future.json', { version: 2, teams: [{ name: 'Shadow' }] })).toEqual([
      expect.stringMatching(/^version must be 1/),
    ]);
    // A secret is named by its path.
    expect(
      await refuse('secret.json', {
        version: 1,
        webhooks: [{ url: 'https://hooks.example.com/in', eventTypes: ['ticket.created'], secret: 'whsec_abc' }],
      }),
    ).toEqual([expect.stringMatching(/^webhooks\.0\.secret .*secret/)]);
    // Every other problem of a document is listed at once.
    const problems = await refuse('broken.json', {
      version: 1,
      teams: [{ name: 'Shadow' }],
      teamTags: [
        { team: 'Shadow', name: 'x'.repeat(51), color: '#112233', type: 'ticket' },
        { team: 'Shadow', name: 'vip', color: 'red', type: 'ticket' },
      ],
    });
    expect(problems.toSorted()).toEqual([
      'teamTags.0.name must be at most 50 characters long',
      'teamTags.1.color has an invalid format',
    ]);
    // A reference to nothing is named by its path too.
    expect(
      await refuse('reference.json', {
        version: 1,
        teamTags: [{ team: 'Nowhere', name: 'vip', color: '#112233', type: 'ticket' }],
      }),
    ).toEqual([expect.stringMatching(/^teamTags\.0.*Nowhere/)]);
    expect(await page.getByRole('button', { name: 'Apply' }).count()).toBe(0);

    const [notJson] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import' }).click()]);
    await notJson.setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1,') });
    await page.getByRole('alert').filter({ hasText: 'The file is not JSON' }).waitFor();

    expect(await server.call<unknown>('GET', '/v1/config/export')).toEqual(before);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
    await session.context.close();
  });
});
