import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeTeam, makeUser } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture, widgetInject } from '../../../test/help-center-site.js';
import { startModelServer, type TestModelServer } from '../../../test/model-server.js';
import { openSse, type SseClient } from '../../../test/sse.js';

const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;
/** A Saturday: the default team hours (Monday to Friday, 09:00-17:00 UTC) are closed. */
const SATURDAY = '2026-01-17T12:00:00.000Z';

interface Handoff {
  requestedBy: string;
  ticket: string;
  teamName: string;
  email: string | null;
  emailRequired: boolean;
  hours: { open: boolean; nextOpeningAt: string | null; expectedWaitMinutes: number | null };
  closed: boolean;
}

describe.each(DIALECTS)('handing a messenger conversation to a person on %s', (dialect) => {
  let harness: TestApp;
  let model: TestModelServer;
  let site: SiteFixture;
  let other: SiteFixture;
  let teamId: string;
  let secret: string;
  let base: string;
  let agentPerson: { userId: string; headers: { 'x-api-key': string } };

  const api = (method: 'GET' | 'POST', path: string, token?: string, payload?: object, slug = site.slug) =>
    widgetInject(harness, slug, method, path, { token, payload });
  const platform = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object, headers = site.acme.headers) =>
    harness.app.inject({ method, url: `/v1${path}`, headers, ...(payload ? { payload } : {}) });
  const newVisitor = async (slug = site.slug) => {
    const response = await harness.app.inject({ method: 'POST', url: `/widget/${slug}/api/visitors` });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().visitorToken as string;
  };
  const openConversation = async (token: string, slug = site.slug) => {
    const response = await api('POST', '/conversations', token, undefined, slug);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().conversation.id as string;
  };
  /** A conversation with one question answered by the assistant. */
  const askedConversation = async (token: string, question = 'Can I change the billing date?') => {
    const conversationId = await openConversation(token);
    model.script({ text: 'Billing dates follow the first payment.' });
    const asked = await api('POST', `/conversations/${conversationId}/messages`, token, { content: question });
    expect(asked.statusCode, asked.body).toBe(201);
    return conversationId;
  };
  const handOff = async (token: string, conversationId: string, payload: object = {}) =>
    api('POST', `/conversations/${conversationId}/handoff`, token, payload);
  const ticketOf = async (conversationId: string) => {
    const row = await harness.db
      .selectFrom('messenger_handoffs')
      .select('ticket_id')
      .where('thread_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    return row.ticket_id;
  };
  const commentsOf = async (ticketId: string) => {
    const response = await platform('GET', `/tickets/${ticketId}/comments?limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { content: string; authorUserType: string; commentType: string }[];
  };
  const reply = async (ticketId: string, content: string, extra: object = {}) => {
    const response = await platform(
      'POST',
      `/tickets/${ticketId}/comment`,
      { content, shouldSendEmail: true, ...extra },
      agentPerson.headers,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string };
  };
  const messagesOf = async (token: string, conversationId: string) => {
    const response = await api('GET', `/conversations/${conversationId}/messages`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().messages as { id: string; author: string; authorName: string | null; content: string }[];
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect, {
      env: {
        OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
        MESSENGER_MESSAGES_PER_ADDRESS: '0',
        EVENT_STREAM_HEARTBEAT_MS: '200',
        EVENT_WATCH_INTERVAL_MS: '20',
      },
    });
    base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
    model = await startModelServer();
    site = await makeSiteFixture(harness, 'Messenger Handoff');
    other = await makeSiteFixture(harness, 'Messenger Without People');
    const team = await makeTeam(harness, site.acme, { name: 'Front desk', identifier: 'DESK' });
    teamId = team.teamId;
    agentPerson = await makeUser(harness, site.acme.organizationId, { name: 'Robin Reyes' });
    const studio = (path: string, payload: object, headers = site.acme.headers) =>
      harness.app.inject({ method: 'POST', url: `/api/v1${path}`, headers, payload });
    const provider = await studio('/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-handoff',
      default_model: 'test-model',
    });
    const agent = await studio('/agents', { name: 'Answers', configuration: { model_provider_id: provider.json().id } });
    const patched = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, {
      widget: { enabled: true, agentId: agent.json().id, handoffTeamId: teamId },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    secret = (await site.call('POST', `/help-centers/${site.helpCenterId}/widget/secret`)).json().data.secret;
    const otherProvider = await studio(
      '/model-providers',
      { name: 'Loopback', kind: 'openai_compatible', base_url: model.baseUrl, api_key: 'sk-x', default_model: 'test-model' },
      other.acme.headers,
    );
    const otherAgent = await studio(
      '/agents',
      { name: 'Answers', configuration: { model_provider_id: otherProvider.json().id } },
      other.acme.headers,
    );
    const otherPatched = await other.call('PATCH', `/help-centers/${other.helpCenterId}`, {
      widget: { enabled: true, agentId: otherAgent.json().id },
    });
    expect(otherPatched.statusCode, otherPatched.body).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  it('makes a routed chat ticket from the conversation, once, and tells the visitor who replies and when', async () => {
    expect((await api('GET', '/config')).json().widget).toMatchObject({ chatAvailable: true, handoffAvailable: true });
    const token = await newVisitor();
    const conversationId = await askedConversation(token, 'Can I move my billing date to the 15th?');

    const first = await handOff(token, conversationId);
    expect(first.statusCode, first.body).toBe(201);
    const handoff = first.json().conversation.handoff as Handoff;
    expect(handoff).toMatchObject({
      requestedBy: 'visitor',
      teamName: 'Front desk',
      email: null,
      emailRequired: false,
      hours: { open: true, nextOpeningAt: null, expectedWaitMinutes: null },
      closed: false,
    });
    expect(handoff.ticket).toMatch(/^DESK-\d+$/);
    // Asked again (a second tab, a double click): the same ticket.
    const again = await handOff(token, conversationId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().conversation.handoff.ticket).toBe(handoff.ticket);

    const ticketId = await ticketOf(conversationId);
    const ticket = (await platform('GET', `/tickets/${ticketId}`)).json().data;
    expect(ticket).toMatchObject({
      source: 'chat',
      teamId,
      title: 'Can I move my billing date to the 15th?',
      ticketIdentifier: handoff.ticket,
    });
    // An anonymous visitor who left no address: one nothing is ever sent to.
    expect(ticket.requestorEmail).toMatch(/@messenger\.invalid$/);
    const comments = await commentsOf(ticketId);
    expect(comments.map((comment) => [comment.authorUserType, comment.content])).toEqual([
      ['CUSTOMER', 'Can I move my billing date to the 15th?'],
      ['AI_AGENT', 'Billing dates follow the first payment.'],
    ]);
    const fetched = await api('GET', `/conversations/${conversationId}`, token);
    expect(fetched.json().conversation.handoff).toEqual(handoff);
    const listed = (await api('GET', '/conversations', token)).json().conversations;
    expect(listed[0]).toMatchObject({ id: conversationId, handoff: { ticket: handoff.ticket } });
  });

  it("shows the team's public replies in the conversation, never its internal notes, and emails nobody", async () => {
    const token = await newVisitor();
    const conversationId = await askedConversation(token);
    expect((await handOff(token, conversationId)).statusCode).toBe(201);
    const ticketId = await ticketOf(conversationId);

    await reply(ticketId, 'Hi, Robin here: I have moved it to the 15th.');
    await reply(ticketId, 'Customer seems upset, keep an eye on it', { commentVisibility: 'private', commentType: 'note' });
    const messages = await messagesOf(token, conversationId);
    expect(messages.map((message) => [message.author, message.authorName, message.content])).toEqual([
      ['visitor', null, 'Can I change the billing date?'],
      ['assistant', null, 'Billing dates follow the first payment.'],
      ['agent', 'Robin Reyes', 'Hi, Robin here: I have moved it to the 15th.'],
    ]);
    const emails = await harness.db
      .selectFrom('email_outbox')
      .select('to_address')
      .where('organization_id', '=', site.acme.organizationId)
      .execute();
    expect(emails.map((email) => email.to_address).filter((to) => to.includes('messenger.invalid'))).toEqual([]);

    // The visitor answers: a customer comment on the ticket, no assistant run.
    const runsBefore = model.requests.length;
    const sent = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'Thank you, Robin!' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      message: { author: 'visitor', content: 'Thank you, Robin!' },
      answer: null,
      handoffRequested: false,
      conversation: { id: conversationId, handoff: { closed: false } },
    });
    expect(model.requests.length).toBe(runsBefore);
    expect((await commentsOf(ticketId)).at(-1)).toMatchObject({ authorUserType: 'CUSTOMER', content: 'Thank you, Robin!' });
    const events = (await platform('GET', '/events?type=comment.created&limit=100')).json().data as {
      data: { content: string };
    }[];
    expect(events.map((event) => event.data.content)).toContain('Thank you, Robin!');
  });

  it('reopens a closed chat ticket when the visitor writes again', async () => {
    const token = await newVisitor();
    const conversationId = await askedConversation(token);
    await handOff(token, conversationId);
    const ticketId = await ticketOf(conversationId);
    const closed = await platform('PATCH', `/tickets/${ticketId}`, { statusName: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await api('GET', `/conversations/${conversationId}`, token)).json().conversation.handoff.closed).toBe(true);

    const sent = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'One more thing' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().conversation.handoff.closed).toBe(false);
    expect((await platform('GET', `/tickets/${ticketId}`)).json().data.closedAt).toBeNull();
  });

  it("outside the team's hours asks for an address, which becomes the requestor and where replies go", async () => {
    const token = await newVisitor();
    const conversationId = await askedConversation(token);
    harness.clock.set(SATURDAY);
    try {
      const made = await handOff(token, conversationId);
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json().conversation.handoff).toMatchObject({
        email: null,
        emailRequired: true,
        hours: { open: false, nextOpeningAt: '2026-01-19T09:00:00.000Z', expectedWaitMinutes: null },
      });
      const bad = await handOff(token, conversationId, { email: 'not an address' });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json().error.code).toBeDefined();

      const left = await handOff(token, conversationId, { email: 'sam@customer.example' });
      expect(left.statusCode, left.body).toBe(200);
      expect(left.json().conversation.handoff).toMatchObject({ email: 'sam@customer.example', emailRequired: false });
      const ticketId = await ticketOf(conversationId);
      expect((await platform('GET', `/tickets/${ticketId}`)).json().data.requestorEmail).toBe('sam@customer.example');
      const activities = (await platform('GET', `/tickets/${ticketId}/activities`)).json().data as { field: string }[];
      expect(activities.map((activity) => activity.field)).toContain('requestor');
    } finally {
      harness.clock.set(TEST_NOW);
    }
  });

  it("a verified visitor's ticket is requested by their contact, and the assistant's own handoff makes one too", async () => {
    const jwt = await new SignJWT({ email: 'pat@partner.example', name: 'Pat Partner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('customer-77')
      .setExpirationTime(NOW_SECONDS + 300)
      .sign(new TextEncoder().encode(secret));
    const identified = await api('POST', '/identify', undefined, { token: jwt });
    expect(identified.statusCode, identified.body).toBe(200);
    const token = identified.json().visitorToken as string;
    const conversationId = await openConversation(token);
    model.script(
      { toolCalls: [{ name: 'handoff_to_human', arguments: { reason: 'Asks for a refund outside the policy' } }] },
      { text: 'A person from our team will take over here.' },
    );
    const asked = await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'Refund me please' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({
      handoffRequested: true,
      conversation: { handoff: { requestedBy: 'assistant', email: 'pat@partner.example', emailRequired: false } },
    });
    const ticket = (await platform('GET', `/tickets/${await ticketOf(conversationId)}`)).json().data;
    expect(ticket).toMatchObject({ requestorEmail: 'pat@partner.example', source: 'chat' });
    expect(ticket.description).toContain('Asks for a refund outside the policy');
  });

  it("refuses what is not the visitor's, a messenger without people, and makes one ticket of two requests at once", async () => {
    const token = await newVisitor();
    const conversationId = await askedConversation(token);
    const stranger = await newVisitor();
    expect((await handOff(stranger, conversationId)).statusCode).toBe(404);
    expect((await api('GET', `/conversations/${conversationId}`, stranger)).statusCode).toBe(404);
    expect((await handOff(token, 'no-such-conversation')).statusCode).toBe(404);
    expect((await handOff(token, conversationId, { email: 'a@b.example', extra: true })).statusCode).toBe(400);
    expect(
      await harness.db.selectFrom('messenger_handoffs').where('thread_id', '=', conversationId).select('ticket_id').execute(),
    ).toEqual([]);

    const otherToken = await newVisitor(other.slug);
    expect((await api('GET', '/config', undefined, undefined, other.slug)).json().widget.handoffAvailable).toBe(false);
    const otherConversation = await openConversation(otherToken, other.slug);
    const refused = await api('POST', `/conversations/${otherConversation}/handoff`, otherToken, {}, other.slug);
    expect(refused.statusCode, refused.body).toBe(404);

    const both = await Promise.all([handOff(token, conversationId), handOff(token, conversationId)]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(both.map((response) => response.json().conversation.handoff.ticket)).size).toBe(1);
    const chatTickets = await harness.db
      .selectFrom('tickets')
      .select('id')
      .where('organization_id', '=', site.acme.organizationId)
      .where('title', '=', 'Can I change the billing date?')
      .where('source', '=', 'chat')
      .execute();
    expect(chatTickets.length).toBeGreaterThan(0);
    expect(
      await harness.db.selectFrom('messenger_handoffs').where('thread_id', '=', conversationId).select('ticket_id').execute(),
    ).toHaveLength(1);
  });

  describe('live', () => {
    const streams: SseClient[] = [];
    const listen = async (token: string, conversationId: string, at = base) => {
      const client = await openSse(`${at}/widget/${site.slug}/api/conversations/${conversationId}/events`, {
        authorization: `Bearer ${token}`,
      });
      streams.push(client);
      expect(client.status, JSON.stringify(client.body)).toBe(200);
      await client.until((stream) => stream.comments.some((comment) => comment.includes('connected')), 'connected');
      return client;
    };
    const messagesIn = (client: SseClient) =>
      client.events
        .filter((event) => event.event === 'message')
        .map((event) => JSON.parse(event.data).message as { author: string; content: string });
    afterAll(() => {
      for (const client of streams) {
        client.close();
      }
    });

    it("brings a person's public reply to every open panel of the conversation, and nothing internal", async () => {
      const token = await newVisitor();
      const conversationId = await askedConversation(token);
      await handOff(token, conversationId);
      const ticketId = await ticketOf(conversationId);
      const [tab1, tab2] = [await listen(token, conversationId), await listen(token, conversationId)];

      await reply(ticketId, 'Internal: check the invoice first', { commentVisibility: 'private', commentType: 'note' });
      await reply(ticketId, 'Done, the date is moved.');
      for (const tab of [tab1, tab2]) {
        await tab.until((client) => messagesIn(client).length >= 1, 'the reply');
        expect(messagesIn(tab)).toEqual([expect.objectContaining({ author: 'agent', content: 'Done, the date is moved.' })]);
      }
      // The visitor's own words reach the other tab; closing the ticket updates the handoff.
      await api('POST', `/conversations/${conversationId}/messages`, token, { content: 'Great, thanks' });
      await tab2.until((client) => messagesIn(client).length >= 2, "the visitor's message");
      expect(messagesIn(tab2).at(-1)).toMatchObject({ author: 'visitor', content: 'Great, thanks' });
      await platform('PATCH', `/tickets/${ticketId}`, { statusName: 'closed' });
      await tab1.until((client) => client.events.some((event) => event.event === 'conversation'), 'the closed conversation');
      const updates = tab1.events.filter((event) => event.event === 'conversation');
      expect(updates.map((event) => JSON.parse(event.data).conversation.handoff.closed)).toEqual([true]);
      expect(JSON.stringify(tab1.events)).not.toContain('Internal: check the invoice');
    });

    it('tells a panel opened before the handoff once there is one, and a stranger gets nothing', async () => {
      const token = await newVisitor();
      const conversationId = await askedConversation(token);
      const stranger = await openSse(`${base}/widget/${site.slug}/api/conversations/${conversationId}/events`, {
        authorization: `Bearer ${await newVisitor()}`,
      });
      streams.push(stranger);
      expect(stranger.status).toBe(404);
      const panel = await listen(token, conversationId);
      await handOff(token, conversationId);
      await panel.until((client) => client.events.some((event) => event.event === 'conversation'), 'the handoff');
      await reply(await ticketOf(conversationId), 'Hello from the desk');
      await panel.until((client) => messagesIn(client).length === 1, 'the reply');
    });

    it('shows the console whether the visitor is there and typing, each change announced once', async () => {
      const token = await newVisitor();
      const conversationId = await askedConversation(token);
      await handOff(token, conversationId);
      const ticketId = await ticketOf(conversationId);
      const visitorOf = async () => {
        const response = await platform('GET', `/tickets/${ticketId}/chat-visitor`, undefined, agentPerson.headers);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().data as { online: boolean; typing: boolean; lastSeenAt: string };
      };
      const eventsOfTicket = async (type: string) => {
        const response = await platform('GET', `/events?type=${type}&limit=100`);
        return (response.json().data as { data: { ticketId: string; online: boolean; typing: boolean } }[])
          .map((event) => event.data)
          .filter((data) => data.ticketId === ticketId);
      };
      expect(await visitorOf()).toMatchObject({ online: true, typing: false });

      // Typing reported twice at once: shown, announced once.
      for (let i = 0; i < 2; i += 1) {
        const typed = await api('POST', `/conversations/${conversationId}/typing`, token);
        expect(typed.statusCode, typed.body).toBe(204);
      }
      expect(await visitorOf()).toMatchObject({ online: true, typing: true });
      expect(await eventsOfTicket('chat.visitor_typing')).toEqual([expect.objectContaining({ typing: true })]);
      expect((await api('POST', `/conversations/${conversationId}/typing`, await newVisitor())).statusCode).toBe(404);

      // No panel for longer than the window: away, announced once by the sweep. The server may
      // still count the closed panel at a heartbeat or two (it learns of the close a moment later),
      // so the clock moves on at each look until the sweep finds the visitor quiet long enough.
      const panel = await listen(token, conversationId);
      panel.close();
      try {
        await expect
          .poll(
            async () => {
              harness.clock.advance(60_000);
              return (await eventsOfTicket('chat.visitor_presence')).map((data) => data.online);
            },
            { timeout: 5_000, interval: 300 },
          )
          .toEqual([false]);
        expect(await visitorOf()).toMatchObject({ online: false, typing: false });
        // Back: a panel opens, and the console hears it (the log reads newest first).
        const back = await listen(token, conversationId);
        await expect
          .poll(async () => (await eventsOfTicket('chat.visitor_presence')).map((data) => data.online), { timeout: 5_000 })
          .toEqual([true, false]);
        back.close();
      } finally {
        harness.clock.set(TEST_NOW);
      }
      // Another kind of ticket has no visitor.
      const plain = await platform('POST', '/tickets', { title: 'Plain', requestorEmail: 'x@y.example', teamId });
      expect((await platform('GET', `/tickets/${plain.json().data.id}/chat-visitor`)).statusCode).toBe(404);
    });

    it('reaches a panel served by another process (another app on its own pool on PostgreSQL)', async () => {
      const processes = await serverProcesses(harness);
      try {
        const second = processes.apps.at(-1);
        const at = !second || second === harness.app ? base : await second.listen({ host: '127.0.0.1', port: 0 });
        const token = await newVisitor();
        const conversationId = await askedConversation(token);
        await handOff(token, conversationId);
        const panel = await listen(token, conversationId, at);
        await reply(await ticketOf(conversationId), 'Answered from the first process');
        await panel.until((client) => messagesIn(client).length === 1, 'the reply');
        panel.close();
      } finally {
        await processes.close();
      }
    });
  });
});
