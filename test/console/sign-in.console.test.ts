import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable } from '../smtp.js';
import { until } from './agent-session.js';
import { launchChromium, openConsole } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';

const PASSWORD = 'violet-harbour-lantern-42';

describe('signing in to the console (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an invited agent sets a password from the emailed link, works, signs out and signs in again', {
    timeout: 60_000,
  }, async () => {
    const agent = await server.call<{ id: string }>('POST', '/v1/users', { name: 'Ada Agent', email: 'ada@acme.test' });
    await server.call('POST', `/v1/users/${agent.id}/invite`);
    const invitation = await until(
      () => server.mail.find((message) => message.to.includes('ada@acme.test')),
      'the invitation email',
    );
    const link = /(http:\/\/127\.0\.0\.1:\d+\/app\/accept-invite\?token=[\w-]+)/.exec(decodeQuotedPrintable(invitation.raw))?.[1];
    expect(link).toBeDefined();

    const { page, context, foreignRequests, pageErrors } = await openConsole(browser, server.origin);
    await page.goto(link ?? '');
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    // The browser's own check stops a password under 12 characters before any request.
    expect(
      await page.getByLabel('New password').evaluate((input) => (input as { validity: { tooShort: boolean } }).validity.tooShort),
    ).toBe(true);

    await page.getByLabel('New password').fill('1qaz2wsx3edc');
    await page.getByLabel('Confirm password').fill('1qaz2wsx3edc');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/common/i);

    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');

    // The link worked once.
    await page.goto(link ?? '');
    await page.getByLabel('New password').fill(`${PASSWORD}-again`);
    await page.getByLabel('Confirm password').fill(`${PASSWORD}-again`);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('alert').waitFor();

    await page.goto('/app/');
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Signed out for real: the inbox sends back to sign-in.
    await page.goto('/app/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await page.getByLabel('Email').fill('ada@acme.test');
    await page.getByLabel('Password').fill('not-the-password-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or password/i);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();

    expect(foreignRequests).toEqual([]);
    // Failed requests are logged by the browser too; the page itself threw nothing.
    expect(pageErrors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
    await context.close();
  });
});
