import { type ParsedMail, simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { composeMail, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from '../../../test/inbound.js';
import { startSmtp } from '../../../test/smtp.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

/**
 * The whole loop of the email channel, through real SMTP both ways: a customer writes in, an agent
 * answers from the ticket, the answer reaches the customer's mail server threaded, and the
 * customer's reply to it (as a mail client writes one: to the Reply-To, citing the Message-ID) lands
 * on the same ticket. Once by the headers alone, once by the reply address alone.
 */
describe.each(DIALECTS)('the email round trip on %s', (dialect) => {
  let customerServer: Awaited<ReturnType<typeof startSmtp>>;
  let data: ReturnType<typeof inboundEnv>;
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let acme: TestOrganization;
  let desk: TestTeam;
  const support = `support-${dialect}@acme.test`;
  let sequence = 0;

  beforeAll(async () => {
    customerServer = await startSmtp();
    data = inboundEnv({ SMTP_URL: customerServer.url, SMTP_FROM: 'Switchboard <noreply@switchboard.test>' });
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness, { name: 'Acme' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    await makeVerifiedMailbox(harness, acme, { address: support, teamId: desk.teamId, displayName: 'Acme Support' });
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
    await customerServer.close();
    data.cleanup();
  });

  /** Mail from the customer's client into Switchboard's receiver. */
  async function customerSends(options: {
    to: string;
    subject: string;
    text: string;
    inReplyTo?: string;
    references?: string[];
  }) {
    const raw = await composeMail({
      from: 'Kim Lee <kim@customer.test>',
      messageId: `<kim-${++sequence}-${dialect}@customer.test>`,
      ...options,
    });
    const answer = await sendRaw(receiver.port, { from: 'kim@customer.test', to: [options.to] }, raw);
    expect(answer.data?.code).toBe(250);
  }

  /** What Switchboard's outbox delivers to the customer's mail server. */
  async function deliveredToCustomer(): Promise<ParsedMail[]> {
    const worker = createOutboxWorker({
      db: harness.db,
      clock: harness.clock,
      config: harness.config,
      log: pino({ level: 'silent' }),
    });
    customerServer.messages.length = 0;
    for (let pass = 0; pass < 20 && (await worker.runOnce()) > 0; pass++) {
      // Until nothing is due.
    }
    await worker.stop();
    const toCustomer = customerServer.messages.filter((message) => message.to.includes('kim@customer.test'));
    return Promise.all(toCustomer.map((message) => simpleParser(message.raw)));
  }

  async function ticketsOfKim() {
    const response = await harness.app.inject({
      url: '/v1/tickets?requestorEmail=kim@customer.test&limit=50',
      headers: acme.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; ticketIdentifier: string; title: string }[];
  }
  async function commentsOf(ticketId: string) {
    const response = await harness.app.inject({ url: `/v1/tickets/${ticketId}/comments?limit=50`, headers: acme.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { content: string; authorUserType: string; customerContactEmail: string | null }[];
  }
  async function agentAnswers(ticketId: string, content: string): Promise<ParsedMail> {
    const answer = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: acme.headers,
      payload: { content, shouldSendEmail: true },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const delivered = await deliveredToCustomer();
    expect(delivered).toHaveLength(1);
    return delivered[0] as ParsedMail;
  }

  it('threads the agent’s answer in the customer’s client, and the customer’s reply back onto the ticket', async () => {
    const subject = `Order 42 never arrived (${dialect})`;
    await customerSends({ to: support, subject, text: 'Hello, my order 42 never arrived.' });
    const ticket = (await ticketsOfKim()).find((candidate) => candidate.title === subject);
    if (!ticket) {
      throw new Error('the customer’s email made no ticket');
    }
    const original = `kim-${sequence}-${dialect}@customer.test`;

    const answer = await agentAnswers(ticket.id, 'Sorry about that: a new parcel leaves today.');
    expect(answer.subject).toBe(`Re: [${ticket.ticketIdentifier}] ${subject}`);
    expect(answer.inReplyTo).toBe(`<${original}>`);
    expect([answer.references ?? []].flat()).toContain(`<${original}>`);
    expect(answer.from?.value).toEqual([{ name: 'Acme Support', address: support }]);
    const replyTo = answer.replyTo?.value[0]?.address ?? '';
    expect(replyTo).toMatch(
      new RegExp(`^support-${dialect}\\+${ticket.ticketIdentifier.toLowerCase()}\\.[0-9a-f]{12}@acme\\.test$`),
    );
    expect(answer.text).toContain('a new parcel leaves today');
    expect(answer.html).toContain('a new parcel leaves today');

    // The customer's client answers to the Reply-To, citing the answer: the reply lands on the ticket.
    await customerSends({
      to: replyTo,
      subject: `Re: ${answer.subject}`,
      text: `Thanks, I will watch for it.\n\nOn Tue, Acme Support wrote:\n> Sorry about that: a new parcel leaves today.`,
      inReplyTo: answer.messageId,
      references: [`<${original}>`, answer.messageId ?? ''],
    });
    expect((await ticketsOfKim()).filter((candidate) => candidate.title.includes(subject))).toHaveLength(1);
    const comments = await commentsOf(ticket.id);
    const reply = comments.find((comment) => comment.content.includes('I will watch for it'));
    expect(reply).toMatchObject({ authorUserType: 'CUSTOMER', customerContactEmail: 'kim@customer.test' });
    expect(reply?.content).not.toContain('a new parcel leaves today');

    // The next answer threads under the customer's reply.
    const second = await agentAnswers(ticket.id, 'It is on its way.');
    expect(second.inReplyTo).toMatch(new RegExp(`^<kim-${sequence}-${dialect}@customer\\.test>$`));
    expect([second.references ?? []].flat()).toEqual(expect.arrayContaining([`<${original}>`, answer.messageId]));
  });

  it('lands a reply on its ticket by the reply address alone, or by the headers alone', async () => {
    const subject = `Invoice question (${dialect})`;
    await customerSends({ to: support, subject, text: 'Why was I billed twice?' });
    const ticket = (await ticketsOfKim()).find((candidate) => candidate.title === subject);
    if (!ticket) {
      throw new Error('the customer’s email made no ticket');
    }
    const answer = await agentAnswers(ticket.id, 'Refunded the second charge.');
    const replyTo = answer.replyTo?.value[0]?.address ?? '';

    // A client that drops In-Reply-To and References, with a new subject: the address still says which ticket.
    await customerSends({ to: replyTo, subject: 'different subject', text: 'Got it, by address.' });
    // A client that writes to the plain support address: the headers still say which ticket.
    await customerSends({ to: support, subject: 'another subject', text: 'Got it, by headers.', inReplyTo: answer.messageId });
    const contents = (await commentsOf(ticket.id)).map((comment) => comment.content);
    expect(contents).toEqual(
      expect.arrayContaining([expect.stringContaining('by address'), expect.stringContaining('by headers')]),
    );
    const titles = (await ticketsOfKim()).map((candidate) => candidate.title);
    expect(titles).not.toContain('different subject');
    expect(titles).not.toContain('another subject');
  });

  it('keeps an agent’s emailed answer beside the ticket, neither as the customer’s comment nor as theirs', async () => {
    await makeUser(harness, acme.organizationId, { name: 'Ada', email: `ada-${dialect}@acme.test` });
    const subject = `Password reset link expired (${dialect})`;
    await customerSends({ to: support, subject, text: 'The link says expired.' });
    const ticket = (await ticketsOfKim()).find((candidate) => candidate.title === subject);
    if (!ticket) {
      throw new Error('the customer’s email made no ticket');
    }
    const answer = await agentAnswers(ticket.id, 'Here is a new link.');
    const before = await commentsOf(ticket.id);
    const replyTo = answer.replyTo?.value[0]?.address ?? '';
    const raw = await composeMail({
      from: `Ada <ada-${dialect}@acme.test>`,
      to: replyTo,
      subject: `Re: ${answer.subject}`,
      text: 'Internal: I also cleared their sessions.',
      inReplyTo: answer.messageId,
      messageId: `<ada-${++sequence}-${dialect}@acme.test>`,
    });
    expect((await sendRaw(receiver.port, { from: `ada-${dialect}@acme.test`, to: [replyTo] }, raw)).data?.code).toBe(250);
    expect(await commentsOf(ticket.id)).toEqual(before);
    const row = await harness.db
      .selectFrom('email_messages')
      .select(['disposition', 'ticket_id', 'comment_id'])
      .where('message_id', '=', `ada-${sequence}-${dialect}@acme.test`)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ disposition: 'from_agent', ticket_id: ticket.id, comment_id: null });
    const contacts = await harness.db
      .selectFrom('customer_contacts')
      .select('id')
      .where('organization_id', '=', acme.organizationId)
      .where('email', '=', `ada-${dialect}@acme.test`)
      .execute();
    expect(contacts).toEqual([]);
  });
});
