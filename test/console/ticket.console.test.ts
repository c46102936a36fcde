import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable } from '../smtp.js';
import { type Agent, apiKeyOf, inviteAgent, openSignedIn, revokeSessionsOf, signInThroughForm, until } from './agent-session.js';
import type { ConsolePage } from './browser.js';
import { launchChromium, openConsole } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';

/** A 1×1 PNG, for an attachment the page previews. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface TicketShape {
  id: string;
  ticketIdentifier: string;
  title: string;
  statusId: string;
  priorityId: string;
  assignedAgentId: string | null;
  tags: { id: string; name: string }[];
  customFieldValues: { fieldId: string; value: unknown }[];
}

interface CommentShape {
  id: string;
  content: string;
  contentHtml: string;
  commentVisibility: 'public' | 'private';
  attachments: string[];
  metadata: Record<string, unknown> | null;
}

interface OptionShape {
  id: string;
  displayName: string;
}

/** The browser globals the page functions read (this project's TypeScript has no DOM types). */
interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  ClipboardEvent: new (type: string, init: Record<string, unknown>) => Event;
  DragEvent: new (type: string, init: Record<string, unknown>) => Event;
  getComputedStyle(element: unknown): { backgroundColor: string };
  document: { documentElement: { scrollWidth: number } };
  __xss?: number;
}

/** The text of every mail received for `address`. */
const mailTo = (server: ConsoleServer, address: string) =>
  server.mail.filter((message) => message.to.includes(address)).map((message) => decodeQuotedPrintable(message.raw));

/** What the page threw (failed requests are logged by the browser too, and a revoked session makes some). */
const thrown = (console: ConsolePage) => console.pageErrors.filter((error) => !error.startsWith('Failed to load resource'));

describe('the ticket page (Chromium, SQLite)', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let ada: Agent;
  let bob: Agent;
  let adaConsole: ConsolePage;
  let teamId: string;
  let count = 0;

  const makeTicket = async (title: string) =>
    server.call<TicketShape>('POST', '/v1/tickets', {
      title,
      teamId,
      requestorEmail: 'pat@customer.test',
      performRouting: false,
    });
  const commentsOf = (ticketId: string) => server.call<CommentShape[]>('GET', `/v1/tickets/${ticketId}/comments`);
  const openTicket = async (page: Page, ticket: TicketShape) => {
    await page.goto(`/app/tickets/${ticket.id}`);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Billing', identifier: 'BILL' });
    teamId = team.id;
    await server.call('POST', `/v1/teams/${teamId}/tags`, { name: 'vip', type: 'ticket', color: '#aa2266' });
    const account = await server.call<{ id: string }>('POST', '/v1/accounts', {
      name: 'Customer Inc',
      primaryDomain: 'customer.test',
    });
    await server.call('POST', '/v1/accounts/contacts', {
      firstName: 'Pat',
      lastName: 'Customer',
      email: 'pat@customer.test',
      accountIds: [account.id],
    });
    await server.call('POST', '/v1/macros', {
      name: 'Refund done',
      teamId,
      content: 'Hi {{requestor.firstName}}, your refund for {{ticket.identifier}} is on its way.',
    });
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    bob = await server.call<Agent>('POST', '/v1/users', { name: 'Bob Builder', email: 'bob@acme.test', userType: 'ORG_ADMIN' });
    adaConsole = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('replies in markdown with a preview and a file: the comment is posted once, shown, and emailed to the requestor', {
    timeout: 60_000,
  }, async () => {
    const ticket = await makeTicket(`Refund for order 1042 (${++count})`);
    const { page } = adaConsole;
    await openTicket(page, ticket);
    expect(await page.getByRole('tab', { name: 'Reply' }).getAttribute('aria-selected')).toBe('true');
    // The requestor panel: the contact, their account, their other tickets.
    const requestor = page.getByRole('complementary', { name: 'Requestor' });
    await requestor.getByText('Pat Customer').waitFor();
    await requestor.getByText('Customer Inc').waitFor();

    // A macro's reply goes into the draft with its placeholders filled, to be edited before sending.
    await page.getByRole('button', { name: 'Macros' }).click();
    await page.getByRole('button', { name: 'Insert macro Refund done' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });
    expect(await message.inputValue()).toBe(
      `Hi Pat, your refund for ${ticket.ticketIdentifier.replace('-', '\\-')} is on its way.`,
    );

    await message.fill('Hello **Pat**,\n\n- refund issued\n- [receipt](https://shop.test/r/1042)');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    expect(await preview.locator('strong').textContent()).toBe('Pat');
    expect(await preview.locator('li').count()).toBe(2);
    expect(await preview.getByRole('link', { name: 'receipt' }).getAttribute('href')).toBe('https://shop.test/r/1042');
    await page.getByRole('button', { name: 'Write' }).click();

    // Files come by paste (a screenshot) and by drop (a log), as the browser hands them over.
    await message.evaluate(
      (element, png) => {
        const browser = globalThis as unknown as BrowserGlobals;
        const files = new browser.DataTransfer();
        files.items.add(new browser.File([Uint8Array.from(png)], 'receipt.png', { type: 'image/png' }));
        element.dispatchEvent(new browser.ClipboardEvent('paste', { clipboardData: files, bubbles: true, cancelable: true }));
      },
      [...PIXEL_PNG],
    );
    await message.evaluate((element) => {
      const browser = globalThis as unknown as BrowserGlobals;
      const files = new browser.DataTransfer();
      files.items.add(new browser.File(['card declined at 10:42'], 'payment.log', { type: 'text/plain' }));
      element.dispatchEvent(new browser.DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
    });
    await page.getByRole('button', { name: 'Remove attachment receipt.png' }).waitFor();
    await page.getByRole('button', { name: 'Remove attachment payment.log' }).waitFor();
    expect(await message.inputValue()).toBe('Hello **Pat**,\n\n- refund issued\n- [receipt](https://shop.test/r/1042)');

    await page.getByRole('button', { name: 'Send' }).dblclick();
    const reply = page.getByRole('article', { name: 'Reply by Ada Agent' });
    await reply.waitFor();
    expect(await reply.locator('strong').textContent()).toBe('Pat');
    const image = reply.getByRole('img', { name: 'receipt.png' });
    await expect.poll(() => image.evaluate((element) => (element as { naturalWidth: number }).naturalWidth)).toBe(1);
    // The composer starts a new draft.
    expect(await message.inputValue()).toBe('');

    const [comment, ...more] = await until(async () => {
      const comments = await commentsOf(ticket.id);
      return comments.length > 0 ? comments : undefined;
    }, 'the reply through the API');
    expect(comment?.commentVisibility).toBe('public');
    expect(comment?.contentHtml).toContain('<strong>Pat</strong>');
    expect(comment?.attachments).toHaveLength(2);
    await reply.getByRole('link', { name: /payment\.log/ }).waitFor();
    const email = await until(
      () => mailTo(server, 'pat@customer.test').find((text) => text.includes('refund issued')),
      'the reply emailed to the requestor',
    );
    expect(email).toContain('Pat');
    // The double click posted once (given time for a second request to land).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(more).toEqual([]);
    expect(await commentsOf(ticket.id)).toHaveLength(1);
    await reply.getByText('Email sent').waitFor({ timeout: 15_000 });
    expect(adaConsole.foreignRequests).toEqual([]);
  });

  it('writes an internal note mentioning a teammate: it looks internal, the teammate is told, the customer is not', {
    timeout: 60_000,
  }, async () => {
    const ticket = await makeTicket(`Chargeback question (${++count})`);
    const { page } = adaConsole;
    await openTicket(page, ticket);
    await page.getByRole('tab', { name: 'Internal note' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.pressSequentially('Looping in @Bo');
    await page
      .getByRole('listbox', { name: 'Mention a teammate' })
      .getByRole('option', { name: /Bob Builder/ })
      .waitFor();
    await message.press('Enter');
    await message.pressSequentially('please check the chargeback.');
    expect(await message.inputValue()).toBe('Looping in @Bob Builder please check the chargeback.');
    await page.getByRole('button', { name: 'Send' }).click();

    const note = page.getByRole('article', { name: 'Internal note by Ada Agent' });
    await note.waitFor();
    await note.getByText('Internal note', { exact: true }).waitFor();
    const background = await note.evaluate(
      (element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).backgroundColor,
    );
    expect(background).not.toBe('rgb(255, 255, 255)');
    expect(background).not.toBe('rgba(0, 0, 0, 0)');

    const [comment] = await commentsOf(ticket.id);
    expect(comment?.commentVisibility).toBe('private');
    expect(comment?.metadata).toEqual({ mentions: [bob.id] });
    await until(
      () => mailTo(server, 'bob@acme.test').find((text) => text.includes('please check the chargeback')),
      'the mention emailed to Bob',
    );
    // The outbox delivered Bob's mail; a mail to the customer would have gone with it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(mailTo(server, 'pat@customer.test').filter((text) => text.includes('chargeback'))).toEqual([]);
  });

  it("edits the title, status, priority, assignee, tags and a field in place; a refused value rolls back with the API's message", {
    timeout: 60_000,
  }, async () => {
    const field = await server.call<{ uid: string }>('POST', '/v1/custom-field', {
      name: 'Order number',
      source: 'ticket',
      fieldType: 'single_line',
      regexForValidation: '^[0-9]+$',
    });
    const ticket = await makeTicket(`Wrong invoice address (${++count})`);
    const statuses = await server.call<OptionShape[]>('GET', `/v1/tickets/statuses?teamId=${teamId}`);
    const priorities = await server.call<OptionShape[]>('GET', `/v1/tickets/priorities?teamId=${teamId}`);
    const status = statuses.find((option) => option.id !== ticket.statusId);
    const priority = priorities.find((option) => option.id !== ticket.priorityId);
    if (!status || !priority) {
      throw new Error('the team has one status or one priority only');
    }
    const { page } = adaConsole;
    await openTicket(page, ticket);

    const title = page.getByRole('textbox', { name: 'Title' });
    // Escape puts the title back and saves nothing.
    await title.fill('Not this title');
    await title.press('Escape');
    await expect.poll(() => title.inputValue()).toBe(ticket.title);
    await title.fill('Invoice address is wrong');
    await title.press('Enter');
    await page.getByLabel('Status').selectOption({ label: status.displayName });
    await page.getByLabel('Priority').selectOption({ label: priority.displayName });
    await page.getByLabel('Assignee').selectOption({ label: 'Bob Builder' });
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'vip' }).click();
    await page.getByRole('button', { name: 'Remove tag vip' }).waitFor();

    await expect
      .poll(async () => {
        const saved = await server.call<TicketShape>('GET', `/v1/tickets/${ticket.id}`);
        return [saved.title, saved.statusId, saved.priorityId, saved.assignedAgentId, saved.tags.map((tag) => tag.name)];
      })
      .toEqual(['Invoice address is wrong', status.id, priority.id, bob.id, ['vip']]);

    // The field's pattern refuses letters: the API's message shows and the field is empty again.
    const orderNumber = page.getByLabel('Order number');
    await orderNumber.fill('abc');
    await orderNumber.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/must match the pattern/);
    await expect.poll(() => orderNumber.inputValue()).toBe('');
    await orderNumber.fill('1042');
    await orderNumber.press('Enter');
    await expect
      .poll(async () => (await server.call<TicketShape>('GET', `/v1/tickets/${ticket.id}`)).customFieldValues)
      .toEqual([{ fieldId: field.uid, value: '1042' }]);
    // The refusal goes with the accepted value. The page renders the mutation's state on its own
    // schedule, which a busy machine can put after the API's commit, so this waits for it.
    await expect.poll(() => page.getByRole('alert').allTextContents()).toEqual([]);

    // The timeline, interleaved on demand, has each change.
    await page.getByLabel('Show activity').check();
    await page.getByText(`changed status from`).first().waitFor();
    await page.getByText('changed assignee from none to Bob Builder').waitFor();

    // Removing the tag, in place too.
    await page.getByRole('button', { name: 'Remove tag vip' }).click();
    await expect.poll(async () => (await server.call<TicketShape>('GET', `/v1/tickets/${ticket.id}`)).tags).toEqual([]);
  });

  it('warns while composing when someone else comments or changes the ticket, and shows the comment live', {
    timeout: 60_000,
  }, async () => {
    const ticket = await makeTicket(`Card declined (${++count})`);
    const { page } = adaConsole;
    await openTicket(page, ticket);
    // A comment of someone else with nothing being written: it appears, without a warning.
    await server.call('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'First look: the card issuer declined.' });
    await page.getByText('First look: the card issuer declined.').waitFor();
    expect(await page.getByRole('status', { name: 'Collision warning' }).count()).toBe(0);

    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Drafting an answer about the card');
    // One's own change while writing is no collision.
    await page.getByLabel('Assignee').selectOption({ label: 'Bob Builder' });
    await expect
      .poll(async () => (await server.call<TicketShape>('GET', `/v1/tickets/${ticket.id}`)).assignedAgentId)
      .toBe(bob.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await page.getByRole('status', { name: 'Collision warning' }).count()).toBe(0);
    await server.call('POST', `/v1/tickets/${ticket.id}/comment`, {
      content: 'Customer called: another card works.',
      commentType: 'note',
    });
    const warning = page.getByRole('status', { name: 'Collision warning' });
    await expect.poll(() => warning.textContent()).toMatch(/added an internal note while you were writing/);
    await server.call('PATCH', `/v1/tickets/${ticket.id}`, { priorityName: 'high' }).catch(async () => {
      const priorities = await server.call<OptionShape[]>('GET', `/v1/tickets/priorities?teamId=${teamId}`);
      const other = priorities.find((option) => option.id !== ticket.priorityId);
      await server.call('PATCH', `/v1/tickets/${ticket.id}`, { priorityId: other?.id });
    });
    await expect.poll(() => warning.textContent()).toMatch(/changed the priority while you were writing \(and 1 more change\)/);

    // "Show" brings the comment into view; the draft is untouched.
    await page.getByRole('button', { name: 'Dismiss the warning' }).waitFor();
    await server.call('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'One more thing from the phone call.' });
    await expect.poll(() => warning.textContent()).toMatch(/commented while you were writing/);
    await warning.getByRole('button', { name: 'Show' }).click();
    const shown = page.locator('article', { hasText: 'One more thing from the phone call.' });
    await expect.poll(() => shown.isVisible()).toBe(true);
    expect(await page.getByRole('status', { name: 'Collision warning' }).count()).toBe(0);
    expect(await message.inputValue()).toBe('Drafting an answer about the card');
    expect(thrown(adaConsole)).toEqual([]);
  });

  it('keeps the draft through an expired session: sending leads to sign-in, which returns to the ticket with the draft', {
    timeout: 60_000,
  }, async () => {
    const ticket = await makeTicket(`Double charge (${++count})`);
    const console = await openSignedIn(browser, server, ada);
    const { page } = console;
    await openTicket(page, ticket);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('We refunded the **second** charge.');

    // Every session of Ada ends, as "sign out everywhere" would.
    expect(await revokeSessionsOf(server, await apiKeyOf(server, ada))).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session ended').waitFor();
    expect(await commentsOf(ticket.id)).toEqual([]);

    await signInThroughForm(console, ada.email);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/tickets/${ticket.id}`);
    expect(await message.inputValue()).toBe('We refunded the **second** charge.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('article', { name: 'Reply by Ada Agent' }).waitFor();
    const comments = await commentsOf(ticket.id);
    expect(comments.map((comment) => comment.contentHtml)).toEqual([expect.stringContaining('<strong>second</strong>')]);
    await console.context.close();
    // The other browser was signed out too: sign it in again for the flows after this one.
    await adaConsole.page.goto('/app/sign-in');
    await signInThroughForm(adaConsole, ada.email);
  });

  it('renders hostile comments inert, and lays the page out in one column on a phone', { timeout: 60_000 }, async () => {
    const ticket = await makeTicket(`Strange characters (${++count})`);
    await server.call('POST', `/v1/tickets/${ticket.id}/comment`, {
      contentHtml:
        '<p>Rich hello</p><img src="x" onerror="window.__xss = 1; alert(1)"><script>window.__xss = 2</script><a href="javascript:alert(3)">click me</a>',
    });
    await server.call('POST', `/v1/tickets/${ticket.id}/comment`, {
      content: 'Plain <img src=x onerror=alert(4)> and <script>alert(5)</script>',
    });
    const phone = await openSignedIn(browser, server, ada, { viewport: { width: 390, height: 844 } });
    const { page } = phone;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openTicket(page, ticket);
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await conversation.getByText('Rich hello').waitFor();
    // The plain comment shows its markup as text.
    await conversation.getByText('<script>alert(5)</script>', { exact: false }).waitFor();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill(
      'Preview <img src=x onerror="window.__xss = 3"> <script>window.__xss = 4</script> [x](javascript:alert(6))',
    );
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__xss)).toBeUndefined();
    const main = page.getByRole('main');
    expect(await main.locator('[onerror], [onclick], [onload]').count()).toBe(0);
    expect(await main.locator('script').count()).toBe(0);
    expect(await main.locator('a[href^="javascript:"]').count()).toBe(0);

    // One column at 390 px: the requestor panel below the conversation, nothing wider than the screen.
    const conversationBox = await conversation.boundingBox();
    const requestorBox = await page.getByRole('complementary', { name: 'Requestor' }).boundingBox();
    expect(requestorBox && conversationBox && requestorBox.y > conversationBox.y).toBe(true);
    expect(
      await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    // DOMPurify parses the typed HTML in an inert document; Chromium reports the inline handler it
    // meets there against the page's CSP, though an inert document runs nothing. Anything else fails.
    expect(thrown(phone).filter((error) => !error.startsWith('Executing inline event handler violates'))).toEqual([]);
    expect(phone.foreignRequests).toEqual([]);
    await phone.context.close();
  });

  it('opens a ticket by its identifier and shows the API message for one that does not exist', { timeout: 30_000 }, async () => {
    const ticket = await makeTicket(`Lost parcel (${++count})`);
    const console = await openConsole(browser, server.origin);
    await console.page.goto(`/app/tickets/${ticket.ticketIdentifier}`);
    await signInThroughForm(console, ada.email).catch(() => undefined);
    await console.page.getByRole('textbox', { name: 'Title' }).waitFor();
    expect(await console.page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(ticket.title);
    await console.page.goto('/app/tickets/BILL-99999');
    await expect.poll(() => console.page.getByRole('alert').textContent()).toMatch(/not found/i);
    await console.context.close();
  });
});
