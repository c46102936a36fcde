import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../console/agent-session.js';
import type { ConsoleServer } from '../console/console-server.js';
import type { ModelRequest, TestModelServer } from '../model-server.js';
import type { SiteFixture } from '../site/site-fixture.js';
import type { HostSite } from './host-page.js';
import {
  createAnsweringAgent,
  IS_FOCUSED_IN_FOCUSED_FRAME,
  type MessengerSite,
  openConversation as openPanel,
  panelFrame,
  seriousProblems,
  startMessengerSite,
  unreadEvents,
} from './messenger-page.js';

/** The first article link a knowledge-base search gave the model, for an answer that cites it. */
function linkOfLastSearch(request: ModelRequest): string {
  const tool = [...request.body.messages].reverse().find((message) => message.role === 'tool');
  const text = typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
  const url = /https?:\/\/[^"\\\s]+\/articles\/[^"\\\s]+/.exec(text ?? '')?.[0];
  if (!url) {
    throw new Error(`no article link in the tool result: ${text}`);
  }
  return url;
}

/** The answer being written, as the panel shows it (hidden from screen readers, so found by its class), and how many answers are final. */
const STREAM_STATE = `(() => ({
  streaming: document.querySelector('.message.streaming')?.textContent ?? null,
  answers: document.querySelectorAll('[role="log"] .message.assistant').length,
}))()`;

describe('chatting with the help center’s assistant in the messenger (Chromium, SQLite)', () => {
  let fixture: MessengerSite;
  let server: ConsoleServer;
  let model: TestModelServer;
  let host: HostSite;
  let site: SiteFixture;
  let slug: string;

  const visit = async () => (await fixture.visit()).page;
  const openConversation = (page: Page) => openPanel(page, host.url({ helpCenter: slug }));

  beforeAll(async () => {
    fixture = await startMessengerSite({ siteName: 'Lumen Chat', env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }, model: true });
    ({ server, host, site } = fixture);
    model = fixture.model as TestModelServer;
    slug = await fixture.enable({ agentId: await createAnsweringAgent(server, model.baseUrl) });
  }, 60_000);
  afterAll(() => fixture?.close());

  it('asks, streams the answer in, shows its source, and keeps the conversation across a reload', {
    timeout: 60_000,
  }, async () => {
    const page = await visit();
    const panel = await openConversation(page);
    const composer = panel.getByRole('textbox', { name: 'Your question' });
    await expect.poll(() => composer.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
    const frame = await panelFrame(page);

    let answerText = '';
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'refund' } }] }, (request) => {
      answerText = `Duplicate charges are refunded in full, at once. The details: ${linkOfLastSearch(request)}`;
      return { text: answerText, chunkDelayMs: 40 };
    });
    await page.keyboard.type('How do refunds work?');
    expect(await panel.getByText('20 / 10,000 characters', { exact: false }).count()).toBe(1);
    await page.keyboard.press('Enter');

    const log = panel.getByRole('log', { name: 'Messages' });
    // The visitor's message at once, the answer growing before it is final.
    await log.getByText('How do refunds work?').waitFor();
    const partial = await until(async () => {
      const state = (await frame.evaluate(STREAM_STATE)) as { streaming: string | null; answers: number };
      return state.streaming?.startsWith('Duplicate') && state.answers === 0 ? state.streaming : undefined;
    }, 'part of the answer');
    expect(answerText.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(answerText.length);
    expect(await panel.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

    const link = `${server.origin}${site.articles.refunds.path}`;
    await log.getByText('Duplicate charges are refunded in full, at once.').waitFor();
    expect((await frame.evaluate(STREAM_STATE)) as object).toEqual({ streaming: null, answers: 1 });
    // The address in the text is a link; the source is listed by its title; both open a new tab.
    const inText = log.getByRole('link', { name: link });
    const source = log.getByRole('list', { name: 'Sources' }).getByRole('link', { name: 'Refund policy' });
    for (const anchor of [inText, source]) {
      expect(await anchor.getAttribute('href')).toBe(link);
      expect(await anchor.getAttribute('target')).toBe('_blank');
      expect(await anchor.getAttribute('rel')).toBe('noopener');
    }
    expect(await composer.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
    expect(await seriousProblems(page)).toEqual([]);
    // "That helped" is kept with the answer.
    await log.getByRole('button', { name: 'That helped' }).click();
    await log.getByText('Thanks: glad it helped.').waitFor();
    expect(await log.getByRole('button', { name: 'That helped' }).count()).toBe(0);

    // Read back from the API after a reload, without asking the model again.
    const modelCalls = model.requests.length;
    await page.reload();
    const again = await openConversation(page);
    const logAgain = again.getByRole('log', { name: 'Messages' });
    await logAgain.getByText('Duplicate charges are refunded in full, at once.').waitFor();
    expect(await logAgain.getByText('How do refunds work?').count()).toBe(1);
    expect(await logAgain.getByRole('link', { name: 'Refund policy' }).getAttribute('href')).toBe(link);
    expect(await logAgain.getByText('Thanks: glad it helped.').count()).toBe(1);
    expect(model.requests.length).toBe(modelCalls);
    await page.emulateMedia({ colorScheme: 'dark' });
    const reloaded = await panelFrame(page);
    expect(await reloaded.evaluate('getComputedStyle(document.body).backgroundColor')).not.toBe('rgb(255, 255, 255)');
    expect(await seriousProblems(page)).toEqual([]);

    // Back to the search, on the entry the visitor came from.
    await again.getByRole('button', { name: 'Back' }).click();
    const entry = again.getByRole('button', { name: 'Ask a question' });
    await expect.poll(() => entry.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
    await again.getByRole('searchbox', { name: 'Search the help center' }).waitFor();
  });

  it('says so honestly when the assistant asks for a person, and counts an answer that arrives while closed as unread', {
    timeout: 60_000,
  }, async () => {
    const page = await visit();
    const panel = await openConversation(page);
    const composer = panel.getByRole('textbox', { name: 'Your question' });
    await expect.poll(() => composer.evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);

    model.script(
      { toolCalls: [{ name: 'handoff_to_human', arguments: { reason: 'Wants a person' } }] },
      { text: 'A person from our team should look at this.' },
    );
    await composer.fill('I want to speak to someone');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText('The assistant could not answer this; try other words or search the help center.').waitFor();
    expect(await panel.getByRole('button', { name: /talk to a person/i }).count()).toBe(0);

    // The visitor closes the panel while the answer is being written: the answer is unread until they open it again.
    model.script({ text: 'Invoices are in Settings, under Billing, for every month you paid.', chunkDelayMs: 60 });
    await composer.fill('Where are my invoices?');
    await page.keyboard.press('Enter');
    await panel.getByRole('log', { name: 'Messages' }).getByText('Where are my invoices?').waitFor();
    await page.keyboard.press('Escape');
    const launcher = page.getByRole('button', { name: /Support messenger/ });
    await expect.poll(() => launcher.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => unreadEvents(page), { timeout: 10_000 }).toBe('1');
    expect(await page.getByRole('button', { name: 'Support messenger, 1 unread' }).count()).toBe(1);
    await launcher.click();
    await expect.poll(() => unreadEvents(page)).toBe('1 0');
    await panel.getByText('Invoices are in Settings, under Billing, for every month you paid.').waitFor();
    expect(model.pending()).toBe(0);
  });

  it('offers a retry when the answer is cut off, and shows a refusal in the server’s words', { timeout: 60_000 }, async () => {
    const page = await visit();
    const panel = await openConversation(page);
    const composer = panel.getByRole('textbox', { name: 'Your question' });
    await composer.waitFor();

    // The real answer, cut after its first piece (as a dropped connection would).
    model.script({ text: 'Plans change at once, and the difference is prorated to the day.' });
    await page.route('**/api/conversations/*/messages', async (route) => {
      if (route.request().method() !== 'POST') {
        return route.fallback();
      }
      const response = await route.fetch();
      const body = await response.text();
      const firstDelta = body.indexOf('event: delta');
      return route.fulfill({ response, body: body.slice(0, body.indexOf('\n\n', firstDelta) + 2) });
    });
    await composer.fill('How do I change my plan?');
    await page.keyboard.press('Enter');
    await panel.getByText('The answer was interrupted.').waitFor();
    await page.unroute('**/api/conversations/*/messages');
    await panel.getByRole('button', { name: 'Retry' }).click();
    const log = panel.getByRole('log', { name: 'Messages' });
    await log.getByText('Plans change at once, and the difference is prorated to the day.').waitFor();
    expect(await panel.getByText('The answer was interrupted.').count()).toBe(0);
    expect(await log.getByText('How do I change my plan?').count()).toBe(1);

    // A refusal before the stream: its words, and the message back in the composer.
    await page.route('**/api/conversations/*/messages', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 429,
            headers: { 'retry-after': '30' },
            contentType: 'application/json',
            body: JSON.stringify({
              error: {
                code: 'rate_limited',
                message: 'You are sending messages too quickly: wait 30 seconds, then send it again',
              },
            }),
          })
        : route.fallback(),
    );
    await composer.fill('One more question');
    await page.keyboard.press('Enter');
    await panel.getByText('You are sending messages too quickly: wait 30 seconds, then send it again').waitFor();
    expect(await composer.inputValue()).toBe('One more question');
    expect(await log.getByText('One more question').count()).toBe(0);
    expect(model.pending()).toBe(0);
  });

  it('tells an anonymous visitor that only signed-in customers can chat, and offers no composer', {
    timeout: 60_000,
  }, async () => {
    await server.call('PATCH', `/help-centers/${site.helpCenterId}`, { widget: { identityVerificationRequired: true } });
    try {
      const page = await visit();
      const panel = await openConversation(page);
      await panel.getByText('Only signed-in customers can chat here.', { exact: false }).waitFor();
      expect(await panel.getByRole('textbox').count()).toBe(0);
      // Focus goes to Back, the first thing there is to do.
      await expect.poll(() => panel.getByRole('button', { name: 'Back' }).evaluate(IS_FOCUSED_IN_FOCUSED_FRAME)).toBe(true);
      expect(await seriousProblems(page)).toEqual([]);
    } finally {
      await server.call('PATCH', `/help-centers/${site.helpCenterId}`, { widget: { identityVerificationRequired: false } });
    }
  });
});
