import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/lib/clock.js';
import { startModelServer, type TestModelServer } from '../model-server.js';
import { openSse, type SseClient } from '../sse.js';
import { type Agent, inviteAgent, openSignedIn } from './agent-session.js';
import { accessibilityProblems } from './axe.js';
import { type ConsolePage, launchChromium } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';

/** The real time, moved forward at will: a visitor's silence passes without the test waiting for it. */
function movableClock(): Clock & { skip(ms: number): void } {
  let skipped = 0;
  return {
    now: () => new Date(Date.now() + skipped),
    skip: (ms) => {
      skipped += ms;
    },
  };
}

interface CommentShape {
  content: string;
  commentVisibility: 'public' | 'private';
  authorUserType: string;
}

describe("a messenger chat's ticket page (Chromium, SQLite)", () => {
  const clock = movableClock();
  let server: ConsoleServer;
  let model: TestModelServer;
  let browser: Browser;
  let ada: Agent;
  let adaConsole: ConsolePage;
  let slug: string;
  const panels: SseClient[] = [];

  /** The messenger's own API, as the visitor's panel calls it. */
  const visitorCall = async (method: 'GET' | 'POST', path: string, token?: string, body?: object) => {
    const response = await fetch(`${server.origin}/widget/${slug}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    }
    return text ? JSON.parse(text) : undefined;
  };
  /** An open messenger panel: its live stream, which is how the server knows the visitor is there. */
  const openPanel = async (token: string, conversationId: string) => {
    const panel = await openSse(`${server.origin}/widget/${slug}/api/conversations/${conversationId}/events`, {
      authorization: `Bearer ${token}`,
    });
    panels.push(panel);
    expect(panel.status, JSON.stringify(panel.body)).toBe(200);
    return panel;
  };

  beforeAll(async () => {
    [server, model, browser] = await Promise.all([
      startConsoleServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', EVENT_STREAM_HEARTBEAT_MS: '500' }, { clock }),
      startModelServer(),
      launchChromium(),
    ]);
    const team = await server.call<{ id: string }>('POST', '/v1/teams', { name: 'Front desk', identifier: 'DESK' });
    const helpCenter = await server.call<{ _id: string }>('POST', '/help-centers', { name: 'Lumen Help' });
    const provider = await server.call<{ id: string }>('POST', '/api/v1/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-console-chat',
      default_model: 'test-model',
    });
    const agent = await server.call<{ id: string }>('POST', '/api/v1/agents', {
      name: 'Answers',
      configuration: { model_provider_id: provider.id },
    });
    const patched = await server.call<{ slug: string }>('PATCH', `/help-centers/${helpCenter._id}`, {
      widget: { enabled: true, agentId: agent.id, handoffTeamId: team.id },
    });
    slug = patched.slug;
    ada = await inviteAgent(server, { name: 'Ada Agent', email: 'ada@acme.test', userType: 'ORG_ADMIN' });
    adaConsole = await openSignedIn(browser, server, ada);
  }, 60_000);
  afterAll(async () => {
    for (const panel of panels) {
      panel.close();
    }
    await browser?.close();
    await model?.close();
    await server?.close();
  });

  it('shows the visitor online and typing, live; the reply goes to the chat; a visitor gone shows as left', {
    timeout: 60_000,
  }, async () => {
    const token = (await visitorCall('POST', '/visitors')).visitorToken as string;
    const conversationId = (await visitorCall('POST', '/conversations', token)).conversation.id as string;
    const handoff = (await visitorCall('POST', `/conversations/${conversationId}/handoff`, token, {})).conversation.handoff;
    const identifier = handoff.ticket as string;
    const panel = await openPanel(token, conversationId);

    const { page } = adaConsole;
    await page.goto(`/app/tickets/${identifier}`);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
    const requestor = page.getByRole('complementary', { name: 'Requestor' });
    await requestor.getByText('Chatting in the messenger · online').waitFor();
    // An anonymous visitor left no address: nothing says it is mailed, the reply goes to the chat.
    await requestor.getByText('No email address left').waitFor();
    expect(await page.getByRole('main').getByText('Chat', { exact: true }).count()).toBe(1);
    const composer = page.getByRole('region', { name: 'Composer' });
    await composer.getByText('Sent to the chat.').waitFor();
    expect(await composer.getByText(/Emailed to/).count()).toBe(0);

    // The visitor types: shown within the live region above the composer.
    const typing = page.getByText('Visitor is typing…');
    expect(await typing.count()).toBe(0);
    await visitorCall('POST', `/conversations/${conversationId}/typing`, token);
    await typing.waitFor();
    expect(await typing.getAttribute('aria-live')).toBe('polite');
    expect(await accessibilityProblems(page)).toEqual([]);

    // Their message arrives as the customer's comment, live, and the typing stops with it (not a few seconds later).
    await visitorCall('POST', `/conversations/${conversationId}/messages`, token, { content: 'Is my parcel lost?' });
    await page.getByRole('region', { name: 'Conversation' }).getByText('Is my parcel lost?').waitFor();
    await typing.waitFor({ state: 'detached', timeout: 2_000 });

    // The reply, written in the composer, is public and reaches the visitor's open panel.
    await page.getByRole('textbox', { name: 'Message' }).fill('It is on its way, due tomorrow.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('article', { name: 'Reply by Ada Agent' }).waitFor();
    const ticket = await server.call<{ id: string; source: string }>('GET', `/v1/tickets/${identifier}`);
    expect(ticket.source).toBe('chat');
    const comments = await server.call<CommentShape[]>('GET', `/v1/tickets/${ticket.id}/comments`);
    expect(comments.at(-1)).toMatchObject({ content: 'It is on its way, due tomorrow.', commentVisibility: 'public' });
    await panel.until(
      (client) => client.events.some((event) => event.event === 'message' && event.data.includes('due tomorrow')),
      'the reply in the panel',
    );

    // The visitor closes the panel; a minute passes without them: the page says they left, and when.
    panel.close();
    await panel.ended;
    // The server hears the panel close on its side of the socket a moment later; only then does time move on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    clock.skip(60_000);
    await requestor.getByText('Left the chat 1 min ago').waitFor();
    expect(await requestor.getByText(/online/).count()).toBe(0);

    // In the inbox, the ticket carries the chat mark.
    await page.goto('/app/?view=builtin:all-open');
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: identifier, exact: true }) });
    await row.getByRole('img', { name: 'Chat' }).waitFor();
    expect(adaConsole.foreignRequests).toEqual([]);
    expect(adaConsole.pageErrors).toEqual([]);
  });

  it('shows no visitor line, chat mark or chat wording on a ticket that came by email', { timeout: 30_000 }, async () => {
    const team = (await server.call<{ id: string }[]>('GET', '/v1/teams'))[0];
    const ticket = await server.call<{ id: string }>('POST', '/v1/tickets', {
      title: 'Invoice question',
      teamId: team?.id,
      requestorEmail: 'pat@customer.test',
      performRouting: false,
    });
    const { page } = adaConsole;
    await page.goto(`/app/tickets/${ticket.id}`);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
    await page.getByRole('region', { name: 'Composer' }).getByText('Emailed to pat@customer.test.').waitFor();
    const requestor = page.getByRole('complementary', { name: 'Requestor' });
    await requestor.getByRole('link', { name: 'pat@customer.test' }).waitFor();
    expect(await requestor.getByText(/messenger|Left the chat/).count()).toBe(0);
    expect(await page.getByRole('main').getByText('Chat', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Visitor is typing…').count()).toBe(0);
  });
});
