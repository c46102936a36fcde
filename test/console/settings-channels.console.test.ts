import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/clock.js';
import { decodeQuotedPrintable } from '../smtp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { type Agent, inviteAgent, openSignedIn, signInThroughForm, until } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium, openConsole } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { pageFailures } from './inbox-session.js';

/** What a control's description reads (its hint and its error), as a screen reader reads it with the control. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

describe('settings: mailboxes and webhooks (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let lead: Agent;

  beforeAll(async () => {
    // A receiver of the admin's on loopback: OUTBOUND_ALLOWED_HOSTS lets webhooks reach it, as it would a private host.
    receiver = await startWebhookReceiver(systemClock);
    [server, browser] = await Promise.all([
      startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: new URL(receiver.base).host }),
      launchChromium(),
    ]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('a support lead registers a webhook, keeps the secret shown once, sends a test event and sees it delivered in the log', {
    timeout: 60_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;
    await page.goto('/app/settings/webhooks');
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    await page.getByRole('link', { name: 'New webhook' }).click();

    // A private address is refused by the API, in its words, beside the URL; what was typed stays.
    const url = page.getByLabel('URL', { exact: true });
    await url.fill('http://192.168.10.7/hooks');
    await page.getByLabel('Description').fill('Orders system');
    await page.getByRole('checkbox', { name: 'ticket.created' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(url)).toMatch(/url .*(https|private)/);
    expect(await page.getByRole('checkbox', { name: 'ticket.created' }).isChecked()).toBe(true);

    await url.fill(`${receiver.base}/orders`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretField = page.getByRole('textbox', { name: 'Signing secret' });
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByText('it will not be shown again').count()).toBe(1);
    receiver.trust('/orders', { shown: secret });

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Test event delivered: HTTP 200 in \d+ ms\.$/ })
      .waitFor();
    const delivery = page.getByRole('list', { name: 'Delivery log' }).getByRole('listitem').first();
    await delivery.getByText('webhook.test').waitFor();
    expect(await delivery.textContent()).toMatch(/Delivered.*HTTP 200 · \d+ ms/);
    const [received] = receiver.at('/orders');
    expect(received?.event.type).toBe('webhook.test');
    expect(received?.verifiedBy).toEqual(['shown']);

    // The receiver fails a second test: the log shows what it answered, and Retry sends it again once it is back.
    receiver.reply('/orders', () => ({ status: 503, body: 'down for maintenance' }));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Test event not delivered: HTTP 503 in \d+ ms\.$/ })
      .waitFor();
    const failed = page.getByRole('list', { name: 'Delivery log' }).getByRole('listitem').first();
    await failed.getByText('Failed', { exact: true }).waitFor();
    expect(await failed.textContent()).toMatch(/HTTP 503 · \d+ ms.*down for maintenance/);
    receiver.reply('/orders', () => ({ status: 200, body: 'ok' }));
    await failed.getByRole('button', { name: /^Retry the webhook.test delivery/ }).click();
    // The worker sends it with its next pass; the log looks again while it is on its way.
    await failed.getByText('Delivered', { exact: true }).waitFor();
    const [, refused, retried] = receiver.at('/orders');
    expect(retried?.headers['webhook-id']).toBe(refused?.headers['webhook-id']);
    expect(retried?.verifiedBy).toEqual(['shown']);

    expect(await accessibilityProblems(page)).toEqual([]);
    // Once stored, the secret is gone from the page, and a reload does not bring it back.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('list', { name: 'Delivery log' }).waitFor();
    expect(await secretField.count()).toBe(0);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('on a phone in dark mode, a support lead adds a mailbox, reads its DNS set-up, verifies it by the emailed link and sends a test email; a second mailbox on the address is refused beside it', {
    timeout: 60_000,
  }, async () => {
    await server.call('POST', '/v1/teams', { name: 'Support', identifier: 'SUP' });
    const session = await openConsole(browser, server.origin, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const { page } = session;
    await page.goto('/app/sign-in');
    await signInThroughForm(session, lead.email);
    await page.goto('/app/settings/mailboxes');
    await page.getByRole('heading', { name: 'No mailboxes yet' }).waitFor();

    const fillMailbox = async () => {
      await page.getByRole('link', { name: 'New mailbox' }).click();
      await page.getByLabel('Address').fill('help@acme.test');
      await page.getByLabel('Display name').fill('Acme Help');
      await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Support' });
      await page.getByRole('button', { name: 'Create mailbox' }).click();
    };
    await fillMailbox();
    await page.getByRole('heading', { name: 'help@acme.test' }).waitFor();
    await page.getByRole('heading', { name: 'Address not verified yet' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send test email' }).isDisabled()).toBe(true);

    // The records come from the API, the verification TXT among them; what the instance cannot give is said.
    const mailboxId = /\/settings\/mailboxes\/(\w+)$/.exec(page.url())?.[1] ?? '';
    const mailbox = await server.call<{ verification: { dnsRecord: { value: string } } }>('GET', `/v1/mailboxes/${mailboxId}`);
    const records = page.getByRole('list', { name: 'DNS records' });
    await records.getByRole('heading', { name: 'Verification' }).waitFor();
    expect(await records.textContent()).toContain(mailbox.verification.dnsRecord.value);
    expect(await records.getByRole('heading', { name: 'Receiving (MX)' }).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Notes on the DNS set-up' }).textContent()).toMatch(
      /does not sign outgoing mail/,
    );
    expect(await accessibilityProblems(page)).toEqual([]);

    // The person reading the address opens the emailed link and confirms.
    const link = await until(
      () =>
        server.mail
          .filter((message) => message.to.includes('help@acme.test'))
          .map((message) => /\/v1\/mailbox-verification\?token=[\w-]+/.exec(decodeQuotedPrintable(message.raw))?.[0])
          .find(Boolean),
      'the verification link',
    );
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm this address' }).click();
    await page.getByText('Address verified').first().waitFor();

    await page.goto(`/app/settings/mailboxes/${mailboxId}`);
    await page.getByRole('heading', { name: 'Address verified' }).waitFor();
    await page.getByRole('button', { name: 'Send test email' }).click();
    await page.getByRole('status').filter({ hasText: 'Test email to lena@acme.test queued' }).waitFor();
    const test = await until(
      () => server.mail.find((message) => message.from === 'help@acme.test' && message.to.includes('lena@acme.test')),
      'the test email',
    );
    expect(test.raw).toMatch(/Subject: Test email from Acme Help/);

    // The same address again: the API's 409 shows beside the address, and the form keeps what was typed.
    await page.getByRole('link', { name: '← All mailboxes' }).click();
    await fillMailbox();
    const address = page.getByLabel('Address');
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(address)).toContain('A mailbox with this address already exists!');
    expect(await page.getByLabel('Display name').inputValue()).toBe('Acme Help');
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });
});
