import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, inviteAgent, openSignedIn } from '../console/agent-session.js';
import type { ConsoleServer } from '../console/console-server.js';
import { createTeamWith } from '../console/inbox-session.js';
import type { TestModelServer } from '../model-server.js';
import type { HostSite } from './host-page.js';
import {
  createAnsweringAgent,
  panelFrame as frameOf,
  IS_FOCUSED_IN_FOCUSED_FRAME,
  type MessengerSite,
  openConversation as openPanel,
  seriousProblems,
  startMessengerSite,
  unreadEvents,
} from './messenger-page.js';

/** The browser's globals the functions run in the page use (the tests' types have no DOM). */
declare const document: {
  querySelector(selector: string): { getBoundingClientRect(): { top: number; bottom: number } } | null;
};
/** Whether the element is in view in the panel's scrolling body, not hidden under the composer. */
const IS_ABOVE_COMPOSER = (element: unknown) => {
  const box = (element as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
  const composer = document.querySelector('.composer')?.getBoundingClientRect();
  const body = document.querySelector('.body')?.getBoundingClientRect();
  return Boolean(composer && body && box.top >= body.top && box.bottom <= composer.top);
};

/** Whether the panel's scrolling body is at its end. */
const SCROLLED_TO_END = `(() => {
  const body = document.querySelector('.body');
  return body.scrollTop + body.clientHeight >= body.scrollHeight - 2;
})()`;

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const ANSWER = 'Refunds of duplicate charges are made in full, at once.';
const REPLY = 'Hello, this is Ada: I have refunded the second charge myself.';
const SECOND_REPLY = 'It will show on your statement within three days.';
const FOLLOW_UP = 'Thank you, Ada! Which card will it go to?';
/** A 1×1 PNG the visitor sends to the person. */
const SCREENSHOT = {
  name: 'statement.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
};
const ATTACHMENT_LIMIT = 64 * 1024;
/** A file over the limit: refused, with the reason beside the button. */
const LARGE_LOG = { name: 'printer.log', mimeType: 'text/plain', buffer: Buffer.alloc(ATTACHMENT_LIMIT + 1, 'x') };
/** A file that is not an image: offered as a download. */
const NOTES = { name: 'order notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Order 1042, charged twice on 3 May.\n') };
/** Counts the beeps the panel makes (each is one oscillator) from here on. */
const COUNT_BEEPS = `(() => {
  window.beeps = 0;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.beeps++;
    return make.call(this);
  };
})()`;

describe('handing the messenger’s conversation to a person (Chromium, SQLite)', () => {
  let fixture: MessengerSite;
  let server: ConsoleServer;
  let model: TestModelServer;
  let browser: Browser;
  let host: HostSite;
  let ada: Agent;
  let teamId: string;
  let slug: string;

  const openConversation = (page: Page) => openPanel(page, host.url({ helpCenter: slug }));

  beforeAll(async () => {
    fixture = await startMessengerSite({
      siteName: 'Lumen Handoff',
      // A small attachment limit, so that one file in the flow is refused.
      env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ATTACHMENT_MAX_BYTES: String(ATTACHMENT_LIMIT) },
      model: true,
    });
    ({ server, browser, host } = fixture);
    model = fixture.model as TestModelServer;
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    const team = await createTeamWith(server, 'Customer Care', 'CARE', ada);
    teamId = team.id;
    // Open around the clock, so the test's hour never matters.
    await server.call('PATCH', `/v1/teams/${team.id}/configurations`, {
      timezone: 'UTC',
      commonDailyConfig: true,
      commonSlots: [{ start: '00:00', end: '24:00' }],
    });
    slug = await fixture.enable({ agentId: await createAnsweringAgent(server, model.baseUrl), handoffTeamId: team.id });
  }, 60_000);
  afterAll(() => fixture?.close());

  it('the visitor asks for a person, an agent answers live from the console, and the conversation is kept across a reload', {
    timeout: 60_000,
  }, async () => {
    // An agent is signed in to the console, on the inbox of every open ticket, before the visitor asks.
    const agentConsole = fixture.keep(await openSignedIn(browser, server, ada));
    const console = agentConsole.page;
    await console
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /^All open/ })
      .click();
    await console.getByText('No tickets here.').waitFor();

    const visitor = await fixture.visit();
    const { page } = visitor;
    const panel = await openConversation(page);
    const composer = panel.getByRole('textbox', { name: 'Your question' });
    await expect.poll(() => composer.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);

    model.script({ text: ANSWER });
    await composer.fill('I was charged twice for my order');
    await page.keyboard.press('Enter');
    const log = panel.getByRole('log', { name: 'Messages' });
    await log.getByText(ANSWER).waitFor();

    // "Talk to a person" beside "That helped": the notice says a person replies here, with the wait and the reference.
    await log.getByRole('button', { name: 'That helped' }).waitFor();
    // Files go to a person only: no button for them before the handoff.
    expect(await panel.getByRole('button', { name: 'Attach a file' }).count()).toBe(0);
    await log.getByRole('button', { name: 'Talk to a person' }).click();
    const notice = panel.getByRole('region', { name: 'Talking to a person' });
    await notice.getByText('A person will reply here.').waitFor();
    expect(await notice.getByText(/^Usually replies in (about \d+ (minute|hour)s?|a few minutes)\.$/).count()).toBe(1);
    const reference = /^Reference: (\S+)$/.exec((await notice.getByText(/^Reference: /).textContent()) ?? '')?.[1];
    expect(reference).toMatch(/^CARE-\d+$/);
    // The button is gone (the conversation is a person's now); focus went on to the composer, not to the page.
    expect(await log.getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
    await expect.poll(() => composer.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
    expect(await notice.getByRole('textbox').count()).toBe(0);
    expect(await seriousProblems(page)).toEqual([]);

    // The chat ticket arrives in the agent's inbox live, by its reference; the agent opens it, with the conversation in it, and replies.
    const row = console.getByRole('row').filter({ has: console.getByRole('cell', { name: reference, exact: true }) });
    await row.waitFor({ timeout: 5000 });
    expect(await row.getByRole('img', { name: 'Chat' }).count()).toBe(1);
    await row.getByRole('link').first().click();
    await console.getByText(ANSWER).first().waitFor();
    // The agent sees that the visitor is in the chat, and when they start writing.
    await console.getByText('Chatting in the messenger', { exact: false }).waitFor({ timeout: 5000 });
    expect(await console.getByText('Visitor is typing…').count()).toBe(0);
    await composer.pressSequentially('Is it', { delay: 20 });
    await console.getByText('Visitor is typing…').waitFor({ timeout: 5000 });
    await composer.fill('');
    await console.getByRole('textbox', { name: 'Message' }).fill(REPLY);
    await console.getByRole('button', { name: 'Send' }).click();

    // The reply reaches the panel live, as the person's own message, with no rating to give.
    const reply = log.locator('.message.agent').filter({ hasText: REPLY });
    await reply.waitFor({ timeout: 5000 });
    expect(await reply.getByText('Ada Agent', { exact: true }).count()).toBe(1);
    expect(await reply.getByRole('button').count()).toBe(0);

    // The visitor writes again: the message goes to the person (no answer expected), and shows on the ticket page live.
    const modelCalls = model.requests.length;
    await composer.fill(FOLLOW_UP);
    await page.keyboard.press('Enter');
    await log.getByText(FOLLOW_UP).waitFor();
    await console
      .getByRole('article', { name: /^Customer message by/ })
      .filter({ hasText: FOLLOW_UP })
      .waitFor({ timeout: 5000 });
    expect(await panel.getByText('could not answer', { exact: false }).count()).toBe(0);
    expect(await panel.getByText('The answer was interrupted.').count()).toBe(0);
    expect(model.requests.length).toBe(modelCalls);

    // The visitor attaches a screenshot: it shows in the conversation as a thumbnail named by its file.
    await panel.getByRole('button', { name: 'Attach a file' }).waitFor();
    await panel.locator('input[type="file"]').setInputFiles(SCREENSHOT);
    const thumbnail = log.getByRole('img', { name: SCREENSHOT.name });
    await thumbnail.waitFor({ timeout: 5000 });
    await expect.poll(() => thumbnail.evaluate((image) => (image as { naturalWidth: number }).naturalWidth)).toBe(1);
    expect(await panel.getByRole('alert').count()).toBe(0);
    expect(await log.locator('.message').last().getByRole('img', { name: SCREENSHOT.name }).count()).toBe(1);

    // A file over the limit is refused beside the button, and nothing is added to the conversation.
    const messagesBefore = await log.locator('.message').count();
    await panel.locator('input[type="file"]').setInputFiles(LARGE_LOG);
    const refusal = panel.getByRole('alert');
    await refusal.getByText('This file is too large to send. Try a smaller file.').waitFor({ timeout: 5000 });
    const attach = panel.getByRole('button', { name: 'Attach a file' });
    expect(await attach.getAttribute('aria-describedby')).toBe(await refusal.getAttribute('id'));
    expect(await log.locator('.message').count()).toBe(messagesBefore);

    // A file that is not an image is listed as a download, and downloads under its own name with its bytes.
    await panel.locator('input[type="file"]').setInputFiles(NOTES);
    const download = log.getByRole('button', { name: `Download ${NOTES.name} (${NOTES.buffer.length} bytes)` });
    await download.waitFor({ timeout: 5000 });
    expect(await panel.getByRole('alert').count()).toBe(0);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(NOTES.name);
    const path = await file.path();
    expect(readFileSync(path, 'utf8')).toBe(NOTES.buffer.toString('utf8'));

    // The sound is off until the visitor turns it on.
    const sound = panel.getByRole('button', { name: 'Sound', exact: true });
    expect(await sound.getAttribute('aria-pressed')).toBe('false');
    expect(await sound.textContent()).toBe('Sound: off');
    await sound.click();
    expect(await sound.getAttribute('aria-pressed')).toBe('true');
    expect(await sound.textContent()).toBe('Sound: on');
    await (await frameOf(page)).evaluate(COUNT_BEEPS);

    // A reply while the panel is closed counts on the launcher, and (the sound on) beeps once.
    await page.keyboard.press('Escape');
    const launcher = page.getByRole('button', { name: /Support messenger/ });
    await expect.poll(() => launcher.getAttribute('aria-expanded')).toBe('false');
    await console.getByRole('textbox', { name: 'Message' }).fill(SECOND_REPLY);
    await console.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => unreadEvents(page), { timeout: 5000 }).toBe('1');
    expect(await (await frameOf(page)).evaluate('window.beeps')).toBe(1);
    await launcher.click();
    await log.getByText(SECOND_REPLY).waitFor();
    // Scrolled to the end, the reply that came while the panel was closed and the notice under it in view.
    await expect.poll(() => log.getByText(SECOND_REPLY).evaluate(IS_ABOVE_COMPOSER)).toBe(true);
    await expect.poll(() => frameOf(page).then((frame) => frame.evaluate(SCROLLED_TO_END))).toBe(true);
    await expect.poll(() => unreadEvents(page)).toBe('1 0');

    // After a reload, the whole conversation is read back: the answer, the person's replies, the notice.
    await page.reload();
    const again = await openConversation(page);
    const logAgain = again.getByRole('log', { name: 'Messages' });
    await logAgain.getByText(SECOND_REPLY).waitFor();
    for (const text of [ANSWER, REPLY, FOLLOW_UP]) {
      expect(await logAgain.getByText(text).count(), text).toBe(1);
    }
    await again.getByRole('region', { name: 'Talking to a person' }).getByText(`Reference: ${reference}`).waitFor();
    expect(await logAgain.getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
    await logAgain.getByRole('img', { name: SCREENSHOT.name }).waitFor();
    // The visitor's choice of sound is remembered.
    expect(await again.getByRole('button', { name: 'Sound', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(visitor.pageErrors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('outside the team’s hours says when it is back, and takes an address for replies by email, with the server’s refusal inline', {
    timeout: 40_000,
  }, async () => {
    // Open tomorrow (UTC) only, from nine: closed now whatever the hour.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const weekday = WEEKDAYS[(tomorrow.getUTCDay() + 6) % 7] as string;
    await server.call('PATCH', `/v1/teams/${teamId}/configurations`, {
      timezone: 'UTC',
      commonDailyConfig: false,
      dailyConfig: Object.fromEntries(
        WEEKDAYS.map((day) => [
          day,
          { isActive: day === weekday, slots: day === weekday ? [{ start: '09:00', end: '17:00' }] : [] },
        ]),
      ),
    });
    const visitor = await fixture.visit({ colorScheme: 'dark' });
    const { page } = visitor;
    const panel = await openConversation(page);
    model.script({ text: ANSWER });
    await panel.getByRole('textbox', { name: 'Your question' }).fill('Can someone call me back?');
    await page.keyboard.press('Enter');
    const log = panel.getByRole('log', { name: 'Messages' });
    await log.getByText(ANSWER).waitFor();
    await log.getByRole('button', { name: 'Talk to a person' }).click();

    const notice = panel.getByRole('region', { name: 'Talking to a person' });
    await notice.getByText('A person will reply here.').waitFor();
    const opening = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'UTC',
    }).format(new Date(`${tomorrow.toISOString().slice(0, 10)}T09:00:00Z`));
    await notice.getByText(`The Customer Care team is away now; they are back ${opening}.`).waitFor();
    const form = notice.getByRole('form', { name: 'We’ll reply by email' });
    const email = form.getByRole('textbox', { name: 'Your email address' });
    // The form does not take the focus: the visitor is left where they were.
    expect(await email.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(false);
    expect(await seriousProblems(page)).toEqual([]);

    await email.fill('not an address');
    await form.getByRole('button', { name: 'Save email' }).click();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const problemId = await email.getAttribute('aria-describedby');
    const problem = (await form.locator(`[id="${problemId}"]`).textContent()) ?? '';
    expect(problem.length).toBeGreaterThan(0);
    expect(await email.inputValue()).toBe('not an address');

    await email.fill('pat@customer.test');
    await form.getByRole('button', { name: 'Save email' }).click();
    await notice.getByText('When you are away, replies also go to pat@customer.test.').waitFor();
    expect(await notice.getByRole('form').count()).toBe(0);
    expect(await seriousProblems(page)).toEqual([]);
  });

  it('shows the assistant’s own handoff as the notice, and a ticket closed and reopened live', { timeout: 40_000 }, async () => {
    const visitor = await fixture.visit();
    const { page } = visitor;
    const panel = await openConversation(page);
    model.script(
      { toolCalls: [{ name: 'handoff_to_human', arguments: { reason: 'Wants a person' } }] },
      { text: 'A person from our team will look at this.' },
    );
    await panel.getByRole('textbox', { name: 'Your question' }).fill('Please let me talk to someone');
    await page.keyboard.press('Enter');
    const notice = panel.getByRole('region', { name: 'Talking to a person' });
    await notice.getByText('A person will reply here.').waitFor();
    const reference = /^Reference: (\S+)$/.exec((await notice.getByText(/^Reference: /).textContent()) ?? '')?.[1];
    expect(reference).toMatch(/^CARE-\d+$/);
    // Handed off already: nothing to offer, and no "could not answer".
    expect(await panel.getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
    expect(await panel.getByText('could not answer', { exact: false }).count()).toBe(0);

    // The team closes the ticket: the panel says so without a reload, and the visitor's next message reopens it.
    await server.call('PATCH', `/v1/tickets/${reference}`, { statusName: 'Closed' });
    await notice.getByText('This conversation was closed; write to reopen it.').waitFor({ timeout: 5000 });
    await panel.getByRole('textbox', { name: 'Your question' }).fill('One more thing, please');
    await page.keyboard.press('Enter');
    await notice.getByText('A person will reply here.').waitFor({ timeout: 5000 });
    expect(await notice.getByText('This conversation was closed; write to reopen it.').count()).toBe(0);
  });
});
