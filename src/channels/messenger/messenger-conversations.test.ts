import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture, widgetInject } from '../../../test/help-center-site.js';
import { type ModelRequest, startModelServer, type TestModelServer } from '../../../test/model-server.js';

const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;
const NUL = String.fromCharCode(0);

interface StreamedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The events of a Server-Sent Events body, in order. */
function eventsOf(body: string): StreamedEvent[] {
  return body
    .split('\n\n')
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1],
      data: /^data: (.*)$/m.exec(frame)?.[1],
    }))
    .filter((frame): frame is { event: string; data: string } => frame.event !== undefined && frame.data !== undefined)
    .map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) }));
}

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

describe.each(DIALECTS)('messenger conversations on %s', (dialect) => {
  let harness: TestApp;
  let model: TestModelServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let agentId: string;
  let secret: string;

  const api = (method: 'GET' | 'POST', path: string, token?: string, payload?: object, slug = site.slug) =>
    widgetInject(harness, slug, method, path, { token, payload });
  const studio = (method: 'GET' | 'POST', path: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${path}`, headers: site.acme.headers, ...(payload ? { payload } : {}) });
  const newVisitor = async (slug = site.slug) => {
    const response = await harness.app.inject({ method: 'POST', url: `/widget/${slug}/api/visitors` });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().visitorToken as string;
  };
  const identify = async (email: string, subject: string) => {
    const jwt = await new SignJWT({ email, name: 'Pat Partner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setExpirationTime(NOW_SECONDS + 300)
      .sign(new TextEncoder().encode(secret));
    const response = await api('POST', '/identify', undefined, { token: jwt });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().visitorToken as string;
  };
  const openConversation = async (token: string) => {
    const response = await api('POST', '/conversations', token);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().conversation.id as string;
  };
  const messagesOf = async (token: string, conversationId: string) => {
    const response = await api('GET', `/conversations/${conversationId}/messages`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().messages as { author: string; content: string; citations: unknown[]; helpful: boolean | null }[];
  };
  const setWidget = async (widget: object) => {
    const response = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { widget });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect, {
      env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', MESSENGER_MESSAGES_PER_VISITOR: '4', MESSENGER_MESSAGES_PER_ADDRESS: '0' },
    });
    model = await startModelServer();
    site = await makeSiteFixture(harness, 'Messenger Chat');
    other = await makeSiteFixture(harness, 'Messenger Elsewhere');
    const provider = await studio('POST', '/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-messenger',
      default_model: 'test-model',
    });
    expect(provider.statusCode, provider.body).toBe(200);
    const agent = await studio('POST', '/agents', { name: 'Answers', configuration: { model_provider_id: provider.json().id } });
    agentId = agent.json().id;
    // Tools a visitor's run must never be offered, whatever the agent has.
    for (const tool_name of ['get_ticket', 'create_ticket', 'lookup_contact', 'search_tickets']) {
      const added = await studio('POST', `/agents/${agentId}/tools`, { agent_id: agentId, tool_name, tool_type: 'built_in' });
      expect(added.statusCode, added.body).toBe(200);
    }
    await setWidget({ enabled: true, agentId });
    secret = (await site.call('POST', `/help-centers/${site.helpCenterId}/widget/secret`)).json().data.secret;
    expect((await other.call('PATCH', `/help-centers/${other.helpCenterId}`, { widget: { enabled: true } })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  it('answers from the knowledge base with its sources, acting for the visitor with only the visitor tools', async () => {
    expect((await api('GET', '/config')).json().widget.chatAvailable).toBe(true);
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'refunds' } }] }, (request) => ({
      text: `You can ask within thirty days: ${linkOfLastSearch(request)}`,
    }));

    const response = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'How do refunds work?' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    const link = `http://localhost:3000/hc/${site.slug}/articles/${site.refunds.slug}`;
    expect(body).toMatchObject({
      message: { author: 'visitor', content: 'How do refunds work?', citations: [] },
      answer: {
        author: 'assistant',
        content: `You can ask within thirty days: ${link}`,
        citations: [{ title: 'Refunds', url: link }],
      },
      handoffRequested: false,
    });
    const offered = (model.requests.at(-2) as ModelRequest).body.tools?.map((tool) => tool.function.name).sort();
    expect(offered).toEqual(['handoff_to_human', 'search_knowledge_base']);
    expect((await messagesOf(token, conversationId)).map((message) => message.author)).toEqual(['visitor', 'assistant']);
    const runs = (await studio('GET', `/agents/${agentId}/runs`)).json();
    expect(runs[0]).toMatchObject({ trigger: 'messenger', principal: { type: 'visitor' }, status: 'succeeded' });
    // A visitor's conversation is not a user's chat thread: the console's chat history does not list it.
    const history = (await studio('GET', '/chat/history')).json();
    expect(JSON.stringify(history)).not.toContain(conversationId);
  });

  it('streams the answer token by token, then the answer with its citations', async () => {
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'install' } }] }, (request) => ({
      text: `Download it from the store, see ${linkOfLastSearch(request)} for the steps.`,
    }));
    const response = await harness.app.inject({
      method: 'POST',
      url: `/widget/${site.slug}/api/conversations/${conversationId}/messages`,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      payload: { content: 'How do I install it?' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const events = eventsOf(response.body);
    expect(events[0]).toMatchObject({ event: 'message', data: { message: { author: 'visitor' } } });
    const deltas = events.filter((event) => event.event === 'delta').map((event) => event.data.text);
    expect(deltas.length).toBeGreaterThan(1);
    const answer = events.find((event) => event.event === 'answer')?.data.message as { content: string; citations: unknown[] };
    expect(deltas.join('')).toContain(answer.content);
    expect(answer.citations).toEqual([{ title: 'Install the app', url: expect.stringContaining(site.install.slug) }]);
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: {
        handoffRequested: false,
        answered: true,
        conversation: expect.objectContaining({ id: conversationId, handoff: null }),
      },
    });
    expect(JSON.stringify(events)).not.toContain('tool_call');
  });

  it("records the agent's own request for a person, and offers one when the agent cannot answer", async () => {
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    model.script(
      { toolCalls: [{ name: 'handoff_to_human', arguments: { reason: 'Wants a refund outside the policy' } }] },
      { text: 'A person from our team will take over here.' },
    );
    const handedOff = await api('POST', `/conversations/${conversationId}/messages`, token, {
      content: 'I want my money back now',
    });
    expect(handedOff.json()).toMatchObject({ answer: { author: 'assistant' }, handoffRequested: true });
    const [run] = (await studio('GET', `/agents/${agentId}/runs`)).json();
    expect(run.handoff_reason).toBe('Wants a refund outside the policy');

    // The provider fails: the visitor is not told why, and is offered a person.
    model.script({ kind: 'error', status: 400, message: 'context length exceeded' });
    const failed = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'Hello?' });
    expect(failed.statusCode, failed.body).toBe(201);
    expect(failed.json()).toMatchObject({ answer: null, handoffRequested: true });
    expect(failed.body).not.toContain('context length');
  });

  it("takes the visitor's rating of an answer, a later one replacing the earlier, and of nothing else", async () => {
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    model.script({ text: 'Open Settings, then Billing.' });
    const asked = (
      await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'Where is billing?' })
    ).json();
    const rate = (messageId: string, helpful: unknown, as = token) =>
      api('POST', `/conversations/${conversationId}/messages/${messageId}/feedback`, as, { helpful });

    const helped = await rate(asked.answer.id, true);
    expect(helped.statusCode, helped.body).toBe(200);
    expect(helped.json().message).toMatchObject({ id: asked.answer.id, author: 'assistant', helpful: true });
    expect((await rate(asked.answer.id, false)).json().message.helpful).toBe(false);
    expect((await messagesOf(token, conversationId)).map((message) => message.helpful)).toEqual([null, false]);
    // The visitor's own words, another visitor's rating, a malformed rating: refused, nothing written.
    expect((await rate(asked.message.id, true)).statusCode).toBe(404);
    expect((await rate(asked.answer.id, true, await newVisitor())).statusCode).toBe(404);
    expect((await rate(asked.answer.id, 'yes')).statusCode).toBe(400);
    expect((await rate('not-a-message', true)).statusCode).toBe(404);
    expect((await messagesOf(token, conversationId))[1]).toMatchObject({ helpful: false });
  });

  it('keeps the visitor to their own conversations: another visitor, help center or token sees nothing', async () => {
    const owner = await newVisitor();
    const conversationId = await openConversation(owner);
    const stranger = await newVisitor();
    expect((await api('GET', '/conversations', stranger)).json()).toEqual({ conversations: [] });
    for (const [method, payload] of [
      ['GET', undefined],
      ['POST', { content: 'Let me in' }],
    ] as const) {
      const response = await api(method, `/conversations/${conversationId}/messages`, stranger, payload);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Conversation not found' } });
    }
    // A token of another help center's messenger is no token here.
    const elsewhere = await newVisitor(other.slug);
    expect((await api('GET', '/conversations', elsewhere)).statusCode).toBe(401);
    expect((await api('GET', '/conversations')).statusCode).toBe(401);
    expect((await api('POST', '/conversations', 'not-a-token')).statusCode).toBe(401);
    // The other help center has no agent: no chat there.
    const none = await api('POST', '/conversations', elsewhere, undefined, other.slug);
    expect(none.statusCode).toBe(404);
    expect((await api('GET', '/config', undefined, undefined, other.slug)).json().widget.chatAvailable).toBe(false);
    expect(await messagesOf(owner, conversationId)).toEqual([]);
  });

  it('refuses empty, blank, NUL-bearing and over-long messages, writing nothing', async () => {
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    for (const content of ['', '   \n ', `a${NUL}b`, 'x'.repeat(10_001)]) {
      const response = await api('POST', `/conversations/${conversationId}/messages`, token, { content });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect((await api('POST', `/conversations/${conversationId}/messages`, token, {})).statusCode).toBe(400);
    expect(await messagesOf(token, conversationId)).toEqual([]);
  });

  it('pauses a visitor who sends too much, with how long to wait, writing nothing', async () => {
    const token = await newVisitor();
    const conversationId = await openConversation(token);
    for (let sent = 0; sent < 4; sent++) {
      model.script({ text: `Answer ${sent}` });
      const response = await api('POST', `/conversations/${conversationId}/messages`, token, { content: `Question ${sent}` });
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'One more' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('wait') });
    expect(await messagesOf(token, conversationId)).toHaveLength(8);
    // Another visitor is not paused by it.
    const next = await newVisitor();
    const theirs = await openConversation(next);
    model.script({ text: 'Hello' });
    expect((await api('POST', `/conversations/${theirs}/messages`, next, { content: 'Hi' })).statusCode).toBe(201);
  });

  it('with verification required, lets only verified visitors chat, and a contact finds their conversations in any browser', async () => {
    await setWidget({ identityVerificationRequired: true });
    try {
      const anonymous = await newVisitor();
      const refused = await api('POST', '/conversations', anonymous);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('verification_required');
      expect((await api('GET', '/search?q=refunds', anonymous)).statusCode).toBe(200);

      const laptop = await identify('pat@partner.test', 'host-pat');
      const conversationId = await openConversation(laptop);
      const phone = await identify('pat@partner.test', 'host-pat-phone');
      const listed = (await api('GET', '/conversations', phone)).json().conversations;
      expect(listed.map((conversation: { id: string }) => conversation.id)).toContain(conversationId);
      const someoneElse = await identify('sam@partner.test', 'host-sam');
      expect((await api('GET', `/conversations/${conversationId}/messages`, someoneElse)).statusCode).toBe(404);
    } finally {
      await setWidget({ identityVerificationRequired: false });
    }
  });
});

describe.each(DIALECTS)("a help center's AI tokens of the day on %s", (dialect) => {
  let harness: TestApp;
  let model: TestModelServer;
  let site: SiteFixture;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', MESSENGER_AI_TOKENS_PER_DAY: '30' } });
    model = await startModelServer();
    site = await makeSiteFixture(harness, 'Messenger Budget');
    const studio = (path: string, payload: object) =>
      harness.app.inject({ method: 'POST', url: `/api/v1${path}`, headers: site.acme.headers, payload });
    const provider = await studio('/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-budget',
      default_model: 'test-model',
    });
    const agent = await studio('/agents', { name: 'Budgeted', configuration: { model_provider_id: provider.json().id } });
    const widget = { enabled: true, agentId: agent.json().id };
    expect((await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { widget })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  it('refuses questions once the day’s tokens are spent, until midnight UTC, writing nothing', async () => {
    const token = (await harness.app.inject({ method: 'POST', url: `/widget/${site.slug}/api/visitors` })).json().visitorToken;
    const ask = (conversationId: string, content: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/widget/${site.slug}/api/conversations/${conversationId}/messages`,
        headers: { authorization: `Bearer ${token}` },
        payload: { content },
      });
    const opened = await harness.app.inject({
      method: 'POST',
      url: `/widget/${site.slug}/api/conversations`,
      headers: { authorization: `Bearer ${token}` },
    });
    const conversationId = opened.json().conversation.id;
    // 25 tokens an answer: the first leaves 5 of 30, the second may still start, the third may not.
    for (const question of ['First?', 'Second?']) {
      model.script({ text: 'An answer.', usage: { prompt_tokens: 20, completion_tokens: 5 } });
      expect((await ask(conversationId, question)).statusCode).toBe(201);
    }
    const refused = await ask(conversationId, 'Third?');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('today') });
    // The clock stands at TEST_NOW, 09:00 UTC: the cap lifts at midnight, 15 hours on.
    expect(TEST_NOW).toMatch(/T09:00:00.000Z$/);
    expect(refused.headers['retry-after']).toBe(String(15 * 3600));
    const messages = await harness.app.inject({
      url: `/widget/${site.slug}/api/conversations/${conversationId}/messages`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(messages.json().messages).toHaveLength(4);
    expect(model.pending()).toBe(0);
  });
});
