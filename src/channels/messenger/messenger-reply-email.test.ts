import { type ParsedMail, simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeTeam, makeUser } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture } from '../../../test/help-center-site.js';
import { composeMail, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from '../../../test/inbound.js';
import { startSmtp } from '../../../test/smtp.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';
import { createChatReplyEmailWorker } from '../../platform/tickets/chat-reply-email.worker.js';
import { type SmtpReceiver, startSmtpReceiver } from '../email/smtp-receiver.js';

/**
 * A person's reply to a messenger conversation reaches the visitor by email only when the visitor
 * is away: two minutes after it, with no panel open since, it goes through the ticket's threaded
 * email to the address the visitor left (real SMTP out), and the visitor's email reply (real SMTP
 * in) continues the same ticket, where the panel shows it.
 */
describe.each(DIALECTS)('messenger replies by email on %s', (dialect) => {
  let visitorServer: Awaited<ReturnType<typeof startSmtp>>;
  let data: ReturnType<typeof inboundEnv>;
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let site: SiteFixture;
  let agentPerson: { headers: { 'x-api-key': string } };
  const support = `chat-${dialect}@acme.test`;
  const visitorAddress = `sam-${dialect}@customer.test`;
  let sequence = 0;

  const api = (method: 'GET' | 'POST', path: string, token?: string, payload?: object) =>
    harness.app.inject({
      method,
      url: `/widget/${site.slug}/api${path}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload ? { payload } : {}),
    });
  /** An anonymous visitor's conversation handed to a person; `email` left for replies. */
  const handedOff = async (email?: string) => {
    const token = (await harness.app.inject({ method: 'POST', url: `/widget/${site.slug}/api/visitors` })).json()
      .visitorToken as string;
    const conversationId = (await api('POST', '/conversations', token)).json().conversation.id as string;
    const made = await api('POST', `/conversations/${conversationId}/handoff`, token, email ? { email } : {});
    expect(made.statusCode, made.body).toBe(201);
    const { ticket_id: ticketId } = await harness.db
      .selectFrom('messenger_handoffs')
      .select('ticket_id')
      .where('thread_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    return { token, conversationId, ticketId };
  };
  const reply = async (ticketId: string, content: string) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: agentPerson.headers,
      payload: { content, shouldSendEmail: true },
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  /** One pass of the chat-reply worker, then of the outbox: what reached visitors (not the team's notifications). */
  const deliver = async (): Promise<ParsedMail[]> => {
    const log = pino({ level: 'silent' });
    const replies = createChatReplyEmailWorker({ ...harness, secretKey: harness.secretKey, log });
    await replies.runOnce();
    const outbox = createOutboxWorker({ db: harness.db, clock: harness.clock, config: harness.config, log });
    visitorServer.messages.length = 0;
    for (let pass = 0; pass < 20 && (await outbox.runOnce()) > 0; pass++) {
      // Until nothing is due.
    }
    await outbox.stop();
    const toVisitors = visitorServer.messages.filter((message) => message.to.some((to) => to.endsWith('@customer.test')));
    return Promise.all(toVisitors.map((message) => simpleParser(message.raw)));
  };

  beforeAll(async () => {
    visitorServer = await startSmtp();
    data = inboundEnv({ SMTP_URL: visitorServer.url, SMTP_FROM: 'Switchboard <noreply@switchboard.test>' });
    harness = await buildTestApp(dialect, { env: data.env });
    site = await makeSiteFixture(harness, 'Messenger Email');
    const team = await makeTeam(harness, site.acme, { name: 'Chat desk', identifier: 'CHAT' });
    await makeVerifiedMailbox(harness, site.acme, { address: support, teamId: team.teamId, displayName: 'Acme Support' });
    agentPerson = await makeUser(harness, site.acme.organizationId, { name: 'Robin Reyes' });
    const agent = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: site.acme.headers,
      payload: { name: 'Answers' },
    });
    expect(agent.statusCode, agent.body).toBe(200);
    const patched = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, {
      widget: { enabled: true, agentId: agent.json().id, handoffTeamId: team.teamId },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
    await visitorServer?.close();
    data?.cleanup();
  });

  it('emails a reply the visitor was away for, threaded, and their email reply continues the ticket', async () => {
    harness.clock.set(TEST_NOW);
    const { token, conversationId, ticketId } = await handedOff(visitorAddress);
    // The visitor closes the panel; a minute later a person answers.
    harness.clock.advance(60_000);
    await reply(ticketId, 'Your refund left today.');
    expect(await deliver()).toEqual([]);
    harness.clock.advance(2 * 60_000 + 1);
    const [mail, ...more] = await deliver();
    expect(more).toEqual([]);
    expect(mail?.to).toMatchObject({ value: [{ address: visitorAddress }] });
    expect(mail?.text).toContain('Your refund left today.');
    expect(mail?.from?.value).toEqual([{ name: 'Acme Support', address: support }]);
    // Decided once: another pass sends nothing more.
    expect(await deliver()).toEqual([]);

    const replyTo = mail?.replyTo?.value[0]?.address ?? '';
    expect(replyTo).not.toBe('');
    const raw = await composeMail({
      from: `Sam <${visitorAddress}>`,
      to: replyTo,
      subject: `Re: ${mail?.subject}`,
      text: 'Thanks, got the money.',
      inReplyTo: mail?.messageId,
      messageId: `<sam-${++sequence}-${dialect}@customer.test>`,
    });
    expect((await sendRaw(receiver.port, { from: visitorAddress, to: [replyTo] }, raw)).data?.code).toBe(250);
    const messages = (await api('GET', `/conversations/${conversationId}/messages`, token)).json().messages as {
      author: string;
      content: string;
    }[];
    expect(messages.slice(-2)).toEqual([
      expect.objectContaining({ author: 'agent', content: 'Your refund left today.' }),
      expect.objectContaining({ author: 'visitor', content: expect.stringContaining('Thanks, got the money.') }),
    ]);
  });

  it('emails nothing the visitor saw in an open panel, nor to a visitor who left no address', async () => {
    harness.clock.set(TEST_NOW);
    const present = await handedOff(`present-${dialect}@customer.test`);
    const anonymous = await handedOff();
    await reply(present.ticketId, 'Answered while you watch.');
    await reply(anonymous.ticketId, 'Answered to nobody.');
    // The present visitor's panel keeps reporting in (its stream's heartbeat) until the reply is due.
    harness.clock.advance(2 * 60_000 + 1);
    await harness.db
      .updateTable('chat_ticket_visitors')
      .set({ last_seen_at: harness.clock.now().toISOString() })
      .where('ticket_id', '=', present.ticketId)
      .execute();
    expect(await deliver()).toEqual([]);
    const decided = await harness.db
      .selectFrom('chat_reply_emails')
      .select(['ticket_id', 'status'])
      .where('ticket_id', 'in', [present.ticketId, anonymous.ticketId])
      .execute();
    expect(Object.fromEntries(decided.map((row) => [row.ticket_id, row.status]))).toEqual({
      [present.ticketId]: 'seen',
      [anonymous.ticketId]: 'no_address',
    });
    harness.clock.set(TEST_NOW);
  });
});
