import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type TestModelServer } from '../model-server.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';
import { createTicket, pageFailures } from './inbox-session.js';

interface Gap {
  question: string;
  count: number;
  newest: { ticket: { id: string; identifier: string | null } };
}

describe("AI agents: an agent's knowledge gaps (Chromium, SQLite, a loopback model answering tickets)", () => {
  let server: ConsoleServer;
  let browser: Browser;
  let model: TestModelServer;
  let lead: Agent;
  let agentId: string;
  let teamId: string;

  beforeAll(async () => {
    model = await startModelServer();
    [server, browser] = await Promise.all([
      startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: new URL(model.baseUrl).host, TICKET_AGENT_POLL_MS: '100' }),
      launchChromium(),
    ]);
    lead = await inviteAgent(server, { name: 'Lena Lead', email: 'lena@acme.test', userType: 'ORG_ADMIN' });
    const provider = await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-gaps',
      default_model: 'small-1',
    });
    agentId = (
      await server.call<{ id: string }>('POST', '/api/v1/agents', {
        name: 'Desk helper',
        configuration: { model_provider_id: provider.id },
      })
    ).id;
    teamId = (await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Desk', identifier: 'DESK' })).id;
    await server.call('POST', `/v1/teams/${teamId}/members`, { userId: lead.id });
    await server.call('PATCH', `/v1/teams/${teamId}/configurations`, { aiAgentId: agentId, aiAgentMode: 'auto' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await model?.close();
  });

  const gaps = () => server.call<Gap[]>('GET', `/api/v1/agents/${agentId}/knowledge-gaps`);

  /** A customer's ticket the agent answers: it searches the articles, finds nothing, and hands the ticket off. */
  async function unansweredTicket(title: string, description: string) {
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: description } }] }, { text: 'HANDOFF' });
    const before = (await gaps()).reduce((sum, gap) => sum + gap.count, 0);
    const ticket = await createTicket(server, teamId, { title, description });
    await expect.poll(async () => (await gaps()).reduce((sum, gap) => sum + gap.count, 0), { timeout: 20_000 }).toBe(before + 1);
    return ticket;
  }

  it('lists a handed-off question with its count and newest ticket, and links "Write an article" to the editor of the chosen help center', {
    timeout: 120_000,
  }, async () => {
    const session = await openSignedIn(browser, server, lead);
    const { page } = session;

    // Nothing handed off yet, and no help center: the page says what fills it and what to make first.
    await page.goto(`/app/agents/${agentId}`);
    await page.getByRole('navigation', { name: 'Agent activity' }).getByRole('link', { name: 'Knowledge gaps' }).click();
    await page.getByRole('heading', { name: 'Knowledge gaps', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No knowledge gaps in the last 30 days' }).waitFor();
    await page.getByText('To write the missing articles, first make a help center in').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    const help = await server.call<{ _id: string }>('POST', '/help-centers', { name: 'Acme Help' });
    await unansweredTicket('Shipping', 'Do you ship to Mars?');
    const newest = await unansweredTicket('Shipping again', 'Do you ship to Mars?');
    await unansweredTicket('Gift cards', 'Can I pay with a gift card?');
    expect((await gaps()).map((gap) => [gap.question, gap.count])).toEqual([
      ['Do you ship to Mars?', 2],
      ['Can I pay with a gift card?', 1],
    ]);

    await page.reload();
    const list = page.getByRole('list', { name: 'Knowledge gaps' });
    const mars = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Do you ship to Mars?' }) });
    await mars.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    expect(await mars.textContent()).toContain('Asked 2 times');
    expect(await list.getByRole('listitem').nth(1).textContent()).toContain('Asked once');
    // The newest ticket of the group, linked to its page.
    const ticketLink = mars.getByRole('link', { name: new RegExp(`^${newest.ticketIdentifier} Shipping again$`) });
    expect(await ticketLink.getAttribute('href')).toBe(`/app/tickets/${newest.id}`);
    // One help center: the article goes there, titled with the question.
    const write = mars.getByRole('link', { name: 'Write an article' });
    expect(await write.getAttribute('href')).toBe(
      `/app/knowledge/${help._id}/articles/new?title=${encodeURIComponent('Do you ship to Mars?')}`,
    );
    expect(await page.getByLabel('New articles go to').count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);

    // Several help centers: the lead chooses where new articles go.
    const docs = await server.call<{ _id: string }>('POST', '/help-centers', { name: 'Developer docs' });
    await page.reload();
    await page.getByLabel('New articles go to').selectOption({ label: 'Developer docs' });
    await expect
      .poll(() => write.getAttribute('href'))
      .toBe(`/app/knowledge/${docs._id}/articles/new?title=${encodeURIComponent('Do you ship to Mars?')}`);

    // The range: a week still holds today's hand-offs.
    await page.getByLabel('Asked in').selectOption({ label: 'Last 7 days' });
    await mars.waitFor();

    // Dark, then phone width.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await accessibilityProblems(page)).toEqual([]);

    // "Write an article" opens the editor's new article, titled with the question, in the chosen help center.
    await write.click();
    await page.waitForURL(`**/app/knowledge/${docs._id}/articles/new?**`);
    await page.getByRole('heading', { name: 'New article', level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Do you ship to Mars?');

    // The ticket link opens the ticket.
    await page.goBack();
    await ticketLink.click();
    await page.waitForURL(`**/app/tickets/${newest.id}`);
    expect(session.foreignRequests).toEqual([]);
    expect(pageFailures(session)).toEqual([]);
  });

  it('a member, whom the API refuses knowledge gaps, is offered no link and sees the refusal on the page', {
    timeout: 60_000,
  }, async () => {
    const member = await inviteAgent(server, { name: 'Mo Member', email: 'mo@acme.test' });
    const session = await openSignedIn(browser, server, member);
    const { page } = session;
    await page.goto(`/app/agents/${agentId}`);
    await page.getByRole('navigation', { name: 'Agent activity' }).getByRole('link', { name: 'Runs' }).waitFor();
    expect(await page.getByRole('link', { name: 'Knowledge gaps' }).count()).toBe(0);
    await page.goto(`/app/agents/${agentId}/knowledge-gaps`);
    await page
      .getByRole('alert')
      .filter({ hasText: /\(403\)$/ })
      .waitFor();
    expect(await page.getByRole('list', { name: 'Knowledge gaps' }).count()).toBe(0);
  });
});
