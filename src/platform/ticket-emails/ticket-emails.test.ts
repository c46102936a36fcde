import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { composeMail, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from '../../../test/inbound.js';
import { envelopePage, expectCursorPagedList } from '../../../test/platform-list-pages.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../channels/email/smtp-receiver.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';

describe.each(DIALECTS)("a ticket's emails on %s", (dialect) => {
  const data = inboundEnv();
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let outsider: Awaited<ReturnType<typeof makeUser>>;
  let insider: Awaited<ReturnType<typeof makeUser>>;
  let support: TestTeam;
  let sequence = 0;
  const address = `support-${dialect}@acme.test`;
  const globexAddress = `help-${dialect}@globex.test`;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    outsider = await makeUser(harness, acme.organizationId);
    insider = await makeUser(harness, acme.organizationId);
    support = await makeTeam(harness, acme);
    await harness.app.inject({
      method: 'POST',
      url: `/v1/teams/${support.teamId}/members`,
      headers: acme.headers,
      payload: { userId: insider.userId },
    });
    // The team's people would be emailed about each ticket mail makes here; their notifications are
    // sent emails of the ticket too, and these tests count the customer's thread.
    for (const headers of [insider.headers, acme.headers, globex.headers]) {
      const quiet = await harness.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/notifications',
        headers,
        payload: { assigned: false, customerReply: false, mentioned: false, teamUnassigned: false },
      });
      expect(quiet.statusCode, quiet.body).toBe(200);
    }
    const globexTeam = await makeTeam(harness, globex);
    for (const [org, teamId, mailbox] of [
      [acme, support.teamId, address],
      [globex, globexTeam.teamId, globexAddress],
    ] as const) {
      await makeVerifiedMailbox(harness, org, { address: mailbox, teamId });
    }
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
    data.cleanup();
  });

  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  /** Sends a message in; answers its bytes and the email row's ticket and id. */
  const receive = async (options: Record<string, unknown> = {}, to = address) => {
    const messageId = (options.messageId as string | undefined) ?? `<thread-${++sequence}-${dialect}@customer.test>`;
    const raw = await composeMail({
      from: 'Kim <kim@customer.test>',
      to,
      subject: 'Where is my order?',
      text: 'Order 42.',
      ...options,
      messageId,
    });
    const sent = await sendRaw(receiver.port, { from: 'kim@customer.test', to: [to] }, raw);
    expect(sent.data?.code).toBe(250);
    const row = await harness.db
      .selectFrom('email_messages')
      .select(['id', 'ticket_id'])
      .where('message_id', '=', messageId.slice(1, -1))
      .where('direction', '=', 'inbound')
      .executeTakeFirstOrThrow();
    return { raw, messageId, id: row.id, ticketId: row.ticket_id ?? '' };
  };
  /** A sent message of the ticket, as the outbound side records it: an outbox row and its email_messages row. */
  const recordSent = async (ticketId: string, inReplyTo: string) => {
    const { id: outboxId } = await enqueueEmail(harness.db, harness, {
      organizationId: acme.organizationId,
      dedupeKey: `test-sent:${dialect}:${++sequence}`,
      to: 'kim@customer.test',
      subject: 'Re: Where is my order?',
      text: 'On its way.',
    });
    const id = harness.ids.ulid();
    await harness.db
      .insertInto('email_messages')
      .values({
        id,
        organization_id: acme.organizationId,
        ticket_id: ticketId,
        outbox_id: outboxId,
        direction: 'outbound',
        message_id: `${outboxId}@acme.test`,
        in_reply_to: inReplyTo.slice(1, -1),
        references_ids: JSON.stringify([inReplyTo.slice(1, -1)]),
        from_address: address,
        from_name: 'Support',
        to_addresses: JSON.stringify(['kim@customer.test']),
        cc_addresses: '[]',
        subject: 'Re: Where is my order?',
        headers: JSON.stringify([['Subject', 'Re: Where is my order?']]),
        raw_size: 100,
        disposition: 'sent',
        created_at: TEST_NOW,
      })
      .execute();
    return { id, outboxId };
  };

  it('lists the messages of a ticket, received and sent, oldest first, with headers and delivery state', async () => {
    const first = await receive();
    const sent = await recordSent(first.ticketId, first.messageId);
    const reply = await receive({
      subject: 'Re: Where is my order?',
      inReplyTo: `<${sent.outboxId}@acme.test>`,
      text: 'Thanks!',
    });
    expect(reply.ticketId).toBe(first.ticketId);
    const response = await get(`/v1/tickets/${first.ticketId}/emails`);
    expect(response.statusCode, response.body).toBe(200);
    const emails = response.json().data;
    expect(emails.map((email: { id: string }) => email.id)).toEqual([first.id, sent.id, reply.id]);
    expect(emails[0]).toMatchObject({
      direction: 'inbound',
      messageId: first.messageId.slice(1, -1),
      inReplyTo: null,
      references: [],
      from: { address: 'kim@customer.test', name: 'Kim' },
      to: [address],
      cc: [],
      subject: 'Where is my order?',
      size: first.raw.length,
      hasRaw: true,
      disposition: 'ticket_created',
      delivery: null,
      createdAt: TEST_NOW,
    });
    expect(emails[0].headers).toContainEqual({ name: 'Subject', value: 'Where is my order?' });
    expect(emails[0].headers).toContainEqual({ name: 'Message-ID', value: first.messageId });
    expect(emails[1]).toMatchObject({
      direction: 'outbound',
      hasRaw: false,
      disposition: 'sent',
      delivery: { outboxId: sent.outboxId, status: 'pending', attempts: 0, lastError: null, sentAt: null },
    });
    expect(emails[2]).toMatchObject({
      disposition: 'reply',
      inReplyTo: `${sent.outboxId}@acme.test`,
      commentId: expect.any(String),
    });
    // A copy of a message Switchboard sent, coming back with its Message-ID, is a loop.
    const echo = await receive({ messageId: `<${sent.outboxId}@acme.test>`, subject: 'Re: Where is my order?' });
    const echoed = await harness.db
      .selectFrom('email_messages')
      .select(['disposition', 'ticket_id'])
      .where('id', '=', echo.id)
      .executeTakeFirstOrThrow();
    expect(echoed).toEqual({ disposition: 'loop', ticket_id: null });
    // By identifier too.
    const ticket = (await get(`/v1/tickets/${first.ticketId}`)).json().data;
    expect((await get(`/v1/tickets/${ticket.ticketIdentifier.toLowerCase()}/emails`)).json().data).toHaveLength(3);
  });

  it('downloads the original as message/rfc822, byte for byte', async () => {
    const attachment = Buffer.from([0, 1, 2, 255, 254, 13, 10, 46, 13, 10]);
    const message = await receive({ attachments: [{ filename: 'bytes.bin', content: attachment }] });
    const response = await get(`/v1/tickets/${message.ticketId}/emails/${message.id}/raw`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('message/rfc822');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${message.id}.eml"`);
    expect(response.rawPayload.equals(message.raw)).toBe(true);
    const sent = await recordSent(message.ticketId, message.messageId);
    const none = await get(`/v1/tickets/${message.ticketId}/emails/${sent.id}/raw`);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('The original of this email is not kept');
  });

  it("answers 404 for another organization's ticket or email, and for an email of another ticket", async () => {
    const ours = await receive();
    const other = await receive({ subject: 'Another' });
    const theirs = await receive({}, globexAddress);
    for (const url of [`/v1/tickets/${ours.ticketId}/emails`, `/v1/tickets/${ours.ticketId}/emails/${ours.id}/raw`]) {
      const response = await get(url, globex.headers);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe('Ticket not found!');
    }
    for (const [ticketId, emailId, headers] of [
      [theirs.ticketId, ours.id, globex.headers],
      [ours.ticketId, theirs.id, acme.headers],
      [ours.ticketId, other.id, acme.headers],
      [ours.ticketId, harness.ids.ulid(), acme.headers],
    ] as const) {
      const response = await get(`/v1/tickets/${ticketId}/emails/${emailId}/raw`, headers);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Email not found!');
    }
    expect((await get(`/v1/tickets/${harness.ids.ulid()}/emails`)).statusCode).toBe(404);
    expect((await get(`/v1/tickets/${ours.ticketId}/emails/not-an-id/raw`)).statusCode).toBe(400);
  });

  it("keeps a private ticket's emails from users who may not see it", async () => {
    const message = await receive();
    const patched = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${message.ticketId}`,
      headers: acme.headers,
      payload: { isPrivate: true, assignedAgentId: null },
    });
    expect(patched.statusCode).toBe(200);
    for (const url of [`/v1/tickets/${message.ticketId}/emails`, `/v1/tickets/${message.ticketId}/emails/${message.id}/raw`]) {
      expect((await get(url, outsider.headers)).statusCode, url).toBe(404);
      expect((await get(url, insider.headers)).statusCode, url).toBe(200);
      expect((await get(url, acme.headers)).statusCode, url).toBe(200);
    }
  });

  it('pages by cursor or page number', async () => {
    const first = await receive();
    const ids = [first.id];
    for (let index = 0; index < 24; index++) {
      ids.push((await recordSent(first.ticketId, first.messageId)).id);
    }
    const theirs = await receive({}, globexAddress);
    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/tickets/${first.ticketId}/emails?limit=10`,
      headers: acme.headers,
      read: envelopePage,
      expected: [first.id, ...ids.slice(1).sort()],
      pageNumbers: true,
      other: { url: `/v1/tickets/${theirs.ticketId}/emails?limit=10`, headers: globex.headers, ids: [theirs.id] },
    });
  });
});
