import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable } from '../smtp.js';
import { type Agent, inviteAgent, openSignedIn, until } from './agent-session.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';

/**
 * A customer answers the satisfaction survey from its email, on the survey's own page in a browser
 * with no session; the agent's open ticket page shows the rating and comment as it arrives.
 */
describe('the satisfaction rating on the ticket page (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let ada: Agent;
  let teamId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    teamId = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Care', identifier: 'CARE' })).id;
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows Good, the comment and when, once the customer sends the form the email link opened', {
    timeout: 60_000,
  }, async () => {
    const ticket = await server.call<{ id: string }>('POST', '/v1/tickets', {
      title: 'Broken kettle',
      teamId,
      requestorEmail: 'sam@customer.test',
      performRouting: false,
    });
    const agent = await openSignedIn(browser, server, ada);
    await agent.page.goto(`/app/tickets/${ticket.id}`);
    const requestor = agent.page.getByRole('complementary', { name: 'Requestor' });
    await requestor.waitFor();
    expect(await requestor.getByRole('region', { name: 'Satisfaction' }).count()).toBe(0);

    await server.call('POST', `/v1/tickets/${ticket.id}/satisfaction/request`);
    const mail = await until(
      () =>
        server.mail
          .filter((message) => message.to.includes('sam@customer.test'))
          .map((message) => decodeQuotedPrintable(message.raw))
          .find((text) => text.includes('Good: ')),
      'the survey email',
    );
    const good = /Good: (http\S+)/.exec(mail)?.[1] ?? '';
    expect(good.startsWith(`${server.origin}/v1/satisfaction?`)).toBe(true);

    // The customer's browser: no session, no script on the page.
    const customer = await browser.newContext();
    const page = await customer.newPage();
    const opened = await page.goto(good);
    expect(opened?.status()).toBe(200);
    expect(await page.getByRole('radio', { name: 'Good, I am satisfied' }).isChecked()).toBe(true);
    await page.getByRole('textbox', { name: 'Anything to add? (optional)' }).fill('Quick and kind, thanks!');
    await page.getByRole('button', { name: 'Send my rating' }).click();
    await page.getByRole('heading', { name: 'Thank you for your feedback' }).waitFor();
    await customer.close();

    // The agent's page hears of it on the live stream.
    const rating = requestor.getByRole('region', { name: 'Satisfaction' });
    await rating.getByText('Good', { exact: true }).waitFor();
    await rating.getByText('Quick and kind, thanks!').waitFor();
    expect(await rating.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await agent.context.close();
  });
});
