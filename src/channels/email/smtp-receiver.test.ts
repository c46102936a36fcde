import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import {
  composeMail,
  INBOUND_SECRET_KEY,
  inboundDepsOf,
  inboundEnv,
  smtpTransport,
  verifyMailbox,
} from '../../../test/inbound.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { connectPostgres } from '../../db/connect.js';
import { replyAddressFor } from '../../delivery/outbound/reply-address.js';
import { decodeSecretKey } from '../../lib/secret-box.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

const LIMIT = 200_000;
/** The flood limit of the receiver of the flood test; the others allow far more (every test writes as Jane). */
const PER_SENDER = 4;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(DIALECTS)('the SMTP receiver on %s', (dialect) => {
  const data = inboundEnv({ INBOUND_MAX_BYTES: String(LIMIT), INBOUND_MAX_PER_SENDER_PER_HOUR: '100000' });
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let support: TestTeam;
  let billing: TestTeam;
  let agent: Awaited<ReturnType<typeof makeUser>>;
  let sequence = 0;
  const acmeAddress = `support-${dialect}@acme.test`;
  const globexAddress = `help-${dialect}@globex.test`;

  const ok = async (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object, headers = acme.headers) => {
    const response = await harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    support = await makeTeam(harness, acme, { name: 'Support' });
    billing = await makeTeam(harness, acme, { name: 'Billing' });
    agent = await makeUser(harness, acme.organizationId, { name: 'Ada Agent', email: `ada-${dialect}@acme.test` });
    await ok('PATCH', `/v1/users/${agent.userId}`, { status: 'online' });
    await ok('POST', `/v1/teams/${support.teamId}/members`, { userId: agent.userId });
    await harness.db
      .deleteFrom('team_members')
      .where('team_id', '=', support.teamId)
      .where('user_id', '=', acme.userId)
      .execute();
    await ok('PATCH', `/v1/teams/${support.teamId}/configurations`, { userRoutingStrategy: 'round_robin' });
    await ok('POST', `/v1/teams/${support.teamId}/routing`, {
      name: 'Invoices to billing',
      resultTeamId: billing.teamId,
      andRules: [JSON.stringify({ field: 'title', operator: 'contains', value: 'invoice' })],
    });
    await ok('POST', '/v1/accounts', { name: 'Customer Inc', primaryDomain: 'customer.test' });
    const acmeMailbox = await ok('POST', '/v1/mailboxes', {
      address: acmeAddress,
      teamId: support.teamId,
      displayName: 'Acme Support',
      delivery: 'smtp',
    });
    await verifyMailbox(harness, acmeMailbox.data.id);
    const globexTeam = await makeTeam(harness, globex);
    const globexMailbox = await ok(
      'POST',
      '/v1/mailboxes',
      { address: globexAddress, teamId: globexTeam.teamId, displayName: 'Globex', delivery: 'smtp' },
      globex.headers,
    );
    await verifyMailbox(harness, globexMailbox.data.id);
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
    data.cleanup();
  });

  const send = (options: Parameters<ReturnType<typeof smtpTransport>['sendMail']>[0]) =>
    smtpTransport(receiver.port).sendMail({ from: 'Jane Doe <jane@customer.test>', to: acmeAddress, ...options });
  const nextId = (label: string) => `<${label}-${++sequence}-${dialect}@customer.test>`;
  const emailRow = (messageId: string, organizationId = acme.organizationId) =>
    harness.db
      .selectFrom('email_messages')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('message_id', '=', messageId.replace(/^<|>$/g, ''))
      .executeTakeFirst();
  const countRows = async (table: 'tickets' | 'ticket_comments' | 'email_messages' | 'email_outbox' | 'attachments') =>
    Number(
      (
        await harness.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const ticketOf = async (messageId: string, organizationId = acme.organizationId) => {
    const row = await emailRow(messageId, organizationId);
    expect(row?.ticket_id).toBeTruthy();
    const headers = organizationId === acme.organizationId ? acme.headers : globex.headers;
    return (await ok('GET', `/v1/tickets/${row?.ticket_id}`, undefined, headers)).data;
  };
  const commentsOf = async (ticketId: string) => (await ok('GET', `/v1/tickets/${ticketId}/comments?limit=100`)).data;
  /** A new ticket from Jane, answered by the receiver; its ticket. */
  const newTicket = async (subject = 'Printer on fire') => {
    const messageId = nextId('new');
    const info = await send({ subject, text: 'It is really on fire.', messageId });
    expect(info.response).toMatch(/^250 /);
    return { messageId, ticket: await ticketOf(messageId) };
  };

  it('turns a new message into a ticket: requestor contact with its account, routed and assigned as API tickets are', async () => {
    const messageId = nextId('new');
    const info = await send({ subject: '  Printer\ton fire ', text: 'It is really on fire.\n\nJane', messageId });
    expect(info.response).toMatch(/^250 .*ticket_created/);
    const ticket = await ticketOf(messageId);
    expect(ticket).toMatchObject({
      title: 'Printer on fire',
      description: 'It is really on fire.\n\nJane',
      source: 'email',
      teamId: support.teamId,
      requestorEmail: 'jane@customer.test',
      customerContactFirstName: 'Jane',
      customerContactLastName: 'Doe',
      account: 'Customer Inc',
      assignedAgentId: agent.userId,
    });
    const contact = await ok('GET', `/v1/accounts/contacts/${ticket.customerContactId}`);
    expect((contact.data ?? contact).accounts.map((account: { name: string }) => account.name)).toEqual(['Customer Inc']);
    const row = await emailRow(messageId);
    expect(row).toMatchObject({
      direction: 'inbound',
      disposition: 'ticket_created',
      from_address: 'jane@customer.test',
      from_name: 'Jane Doe',
    });
    expect(row?.raw?.toString('utf8')).toContain('It is really on fire.');
    const created = await harness.db
      .selectFrom('events')
      .select(['type', 'actor_type', 'actor_id'])
      .where('ticket_id', '=', ticket.id)
      .where('type', '=', 'ticket.created')
      .executeTakeFirstOrThrow();
    expect(created).toEqual({ type: 'ticket.created', actor_type: 'customer_contact', actor_id: ticket.customerContactId });
    const routed = await newTicket('Question about my invoice');
    expect(routed.ticket.teamId).toBe(billing.teamId);
  });

  it('threads a reply by In-Reply-To onto its ticket as a public customer comment, without the quoted mail', async () => {
    const { messageId, ticket } = await newTicket();
    const tickets = await countRows('tickets');
    const reply = nextId('reply');
    const info = await send({
      subject: `Re: ${ticket.title}`,
      inReplyTo: messageId,
      references: [messageId],
      messageId: reply,
      text: 'Still burning.\n\nOn Thu, Jan 15, 2026 at 9:00 AM Acme Support <support@acme.test> wrote:\n> We are on it.\n',
    });
    expect(info.response).toMatch(/reply/);
    expect(await countRows('tickets')).toBe(tickets);
    const [comment] = await commentsOf(ticket.id);
    expect(comment).toMatchObject({
      content: 'Still burning.',
      commentVisibility: 'public',
      authorUserType: 'CUSTOMER',
      customerContactEmail: 'jane@customer.test',
    });
    expect(comment.sourceEmailId).toBe((await emailRow(reply))?.id);
    expect((await emailRow(reply))?.comment_id).toBe(comment.id);
  });

  it("threads a reply by the ticket's signed reply address, and reopens a closed ticket, telling the assignee", async () => {
    const { ticket } = await newTicket();
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
    const outbox = await countRows('email_outbox');
    const replyTo = replyAddressFor(
      acmeAddress,
      { id: ticket.id, identifier: ticket.ticketIdentifier },
      decodeSecretKey(INBOUND_SECRET_KEY),
    );
    const info = await send({
      to: replyTo,
      subject: 'no thread headers here',
      text: 'It is back on fire.',
      messageId: nextId('token'),
    });
    expect(info.response).toMatch(/reply/);
    expect((await ok('GET', `/v1/tickets/${ticket.id}`)).data).toMatchObject({ isClosed: false, closedAt: null });
    expect((await commentsOf(ticket.id)).map((comment: { content: string }) => comment.content)).toEqual(['It is back on fire.']);
    const told = await harness.db
      .selectFrom('email_outbox')
      .select(['to_address', 'text_body'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(told.length).toBe(outbox + 1);
    expect(told.at(-1)?.to_address).toBe(`ada-${dialect}@acme.test`);
    // A forged signature is no reply: the message becomes a ticket of its own.
    const forged = replyTo.replace(/\.[0-9a-f]{12}@/, '.000000000000@');
    const forgedId = nextId('forged');
    expect((await send({ to: forged, subject: 'Forged', text: 'x', messageId: forgedId })).response).toMatch(/ticket_created/);
    expect((await ticketOf(forgedId)).id).not.toBe(ticket.id);
  });

  it('stores attachments on the ticket and points inline images of the HTML at them', async () => {
    const messageId = nextId('files');
    await send({
      subject: 'Screenshots',
      messageId,
      text: 'See the picture.',
      html: '<p>See <b>the picture</b>:</p><img src="cid:shot@customer.test" alt="shot"><script>alert(1)</script>',
      attachments: [
        { filename: 'log.txt', content: 'line 1\nline 2\n', contentType: 'text/plain' },
        { filename: 'shot.png', content: PNG, contentType: 'image/png', cid: 'shot@customer.test' },
      ],
    });
    const ticket = await ticketOf(messageId);
    expect(ticket.description).toBe('See the picture.');
    const [comment] = await commentsOf(ticket.id);
    expect(comment.attachments).toHaveLength(2);
    const named = new Map<string, string>();
    for (const id of comment.attachments as string[]) {
      named.set((await ok('GET', `/v1/attachments/${id}/metadata`)).data.fileName, id);
    }
    const [log, shot] = [named.get('log.txt'), named.get('shot.png')];
    expect(comment.contentHtml).toContain(`/v1/attachments/${shot}`);
    expect(comment.contentHtml).not.toContain('script');
    expect(comment.contentHtml).not.toContain('cid:');
    const file = await harness.app.inject({ url: `/v1/attachments/${log}`, headers: acme.headers });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('line 1\nline 2\n');
    const image = await harness.app.inject({ url: `/v1/attachments/${shot}`, headers: acme.headers });
    expect(image.rawPayload.equals(PNG)).toBe(true);
  });

  it('sets auto-replies, bounces and mail from its own addresses aside: no ticket, no comment, no email', async () => {
    const { messageId: original, ticket } = await newTicket();
    const before = {
      tickets: await countRows('tickets'),
      comments: await countRows('ticket_comments'),
      outbox: await countRows('email_outbox'),
    };
    const cases: [string, Record<string, unknown>, string][] = [
      ['auto-submitted', { headers: { 'Auto-Submitted': 'auto-replied' }, inReplyTo: original }, 'auto_reply'],
      ['x-autoreply', { headers: { 'X-Autoreply': 'yes' } }, 'auto_reply'],
      ['x-autorespond', { headers: { 'X-Autorespond': 'Out of office' } }, 'auto_reply'],
      ['precedence', { headers: { Precedence: 'bulk' } }, 'auto_reply'],
      ['mailer-daemon', { from: 'MAILER-DAEMON@mx.customer.test' }, 'bounce'],
      ['own mailbox', { from: acmeAddress }, 'loop'],
      ['another mailbox', { from: globexAddress }, 'loop'],
      ['reply address', { from: replyAddressFor(globexAddress, { id: ticket.id, identifier: 'x-1' }, Buffer.alloc(32)) }, 'loop'],
      ['outgoing sender', { from: 'Switchboard <support@switchboard.local>' }, 'loop'],
    ];
    for (const [label, options, disposition] of cases) {
      const messageId = nextId(label.replace(/\W/g, ''));
      const info = await send({ subject: `Automatic: ${label}`, text: 'I am away.', messageId, ...options });
      expect(info.response, label).toMatch(new RegExp(disposition));
      const row = await emailRow(messageId);
      expect(row?.disposition, label).toBe(disposition);
      // Set aside by its headers, before its body is read: only they are kept.
      expect(row?.raw, label).toBeNull();
      expect(row?.headers, label).toContain(`Automatic: ${label}`);
    }
    // Auto-Submitted: no is a person's mail.
    const person = nextId('person');
    expect(
      (await send({ subject: 'Human', text: 'hi', messageId: person, headers: { 'Auto-Submitted': 'no' } })).response,
    ).toMatch(/ticket_created/);
    const after = {
      tickets: await countRows('tickets'),
      comments: await countRows('ticket_comments'),
      outbox: await countRows('email_outbox'),
    };
    expect(after).toEqual({ tickets: before.tickets + 1, comments: before.comments, outbox: before.outbox + 1 });
    // The out-of-office reply to the ticket is kept beside it, for agents to see.
    const [autoReply] = await harness.db
      .selectFrom('email_messages')
      .select(['ticket_id', 'comment_id'])
      .where('organization_id', '=', acme.organizationId)
      .where('in_reply_to', '=', original.replace(/^<|>$/g, ''))
      .where('disposition', '=', 'auto_reply')
      .execute();
    expect(autoReply).toEqual({ ticket_id: ticket.id, comment_id: null });
  });

  it('sets a delivery status notification and the null sender aside as bounces', async () => {
    const dsnId = `dsn-${dialect}@mx.customer.test`;
    const dsn = [
      'From: Mail Delivery System <postmaster@mx.customer.test>',
      `To: ${acmeAddress}`,
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: <${dsnId}>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--b1',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.customer.test',
      '',
      'Final-Recipient: rfc822; gone@customer.test',
      'Action: failed',
      'Status: 5.1.1',
      '--b1--',
      '',
    ].join('\r\n');
    const tickets = await countRows('tickets');
    const sent = await sendRaw(receiver.port, { from: 'postmaster@mx.customer.test', to: [acmeAddress] }, dsn);
    expect(sent.data?.code).toBe(250);
    expect((await emailRow(`<${dsnId}>`))?.disposition).toBe('bounce');
    const nullSenderId = `null-${dialect}@mx.customer.test`;
    const plain = `From: Someone <someone@customer.test>\r\nTo: ${acmeAddress}\r\nSubject: Hello\r\nMessage-ID: <${nullSenderId}>\r\n\r\nbody\r\n`;
    expect((await sendRaw(receiver.port, { from: '', to: [acmeAddress] }, plain)).data?.code).toBe(250);
    expect((await emailRow(`<${nullSenderId}>`))?.disposition).toBe('bounce');
    expect(await countRows('tickets')).toBe(tickets);
  });

  it('stores a message sent twice once (same Message-ID): one ticket, both deliveries answered 250', async () => {
    const messageId = nextId('twice');
    const raw = await composeMail({
      from: 'jane@customer.test',
      to: acmeAddress,
      subject: 'Twice',
      text: 'Sent twice.',
      messageId,
    });
    const tickets = await countRows('tickets');
    const first = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, raw);
    const second = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, raw);
    expect(first.data).toMatchObject({ code: 250, text: expect.stringMatching(/ticket_created/) });
    expect(second.data).toMatchObject({ code: 250, text: expect.stringMatching(/duplicate/) });
    expect(await countRows('tickets')).toBe(tickets + 1);
    // Without a Message-ID the bytes name the message: a resent copy is the same one.
    const bare = `From: jane@customer.test\r\nTo: ${acmeAddress}\r\nSubject: No id ${dialect}\r\n\r\nno id\r\n`;
    await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, bare);
    await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, bare);
    expect(await countRows('tickets')).toBe(tickets + 2);
  });

  it('stores a message delivered by two processes at once once (the Message-ID index decides)', async () => {
    const second = harness.dialect === 'postgres' ? connectPostgres(harness.url ?? '', 5) : null;
    const other = await startSmtpReceiver(inboundDepsOf(harness, second?.db ?? harness.db), { port: 0, host: '127.0.0.1' });
    try {
      const tickets = await countRows('tickets');
      for (let round = 0; round < 3; round++) {
        const messageId = nextId('race');
        const raw = await composeMail({ from: 'jane@customer.test', to: acmeAddress, subject: 'Race', text: 'x', messageId });
        const replies = await Promise.all(
          [receiver.port, other.port, receiver.port, other.port].map((port) =>
            sendRaw(port, { from: 'jane@customer.test', to: [acmeAddress] }, raw),
          ),
        );
        expect(replies.map((reply) => reply.data?.code)).toEqual([250, 250, 250, 250]);
        expect(replies.filter((reply) => /ticket_created/.test(reply.data?.text ?? ''))).toHaveLength(1);
      }
      expect(await countRows('tickets')).toBe(tickets + 3);
    } finally {
      await other.close();
      await second?.close();
    }
  });

  it('refuses unknown recipients at RCPT TO (550) and takes the known ones of the same message', async () => {
    const unknown = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [`nobody-${dialect}@acme.test`] }, 'x');
    expect(unknown.rcpt.map((reply) => reply.code)).toEqual([550]);
    expect(unknown.data).toBeNull();
    const id = nextId('mixed');
    const raw = await composeMail({ from: 'jane@customer.test', to: acmeAddress, subject: 'Mixed', text: 'x', messageId: id });
    const mixed = await sendRaw(
      receiver.port,
      { from: 'jane@customer.test', to: ['someone@elsewhere.test', acmeAddress, 'no-domain@localhost', 'bad address'] },
      raw,
    );
    expect(mixed.rcpt.map((reply) => reply.code)).toEqual([550, 250, 553, 501]);
    expect(mixed.data?.code).toBe(250);
    expect(await emailRow(id)).toBeDefined();
  });

  it('advertises SIZE and refuses a bigger message with 552, storing nothing', async () => {
    const rows = await countRows('email_messages');
    const declared = await sendRaw(
      receiver.port,
      { from: 'jane@customer.test', to: [acmeAddress], mailFromParameters: ` SIZE=${LIMIT + 1}` },
      'x',
    );
    expect(declared.ehlo.text).toContain(`SIZE ${LIMIT}`);
    expect(declared.mailFrom.code).toBe(552);
    const big = `From: jane@customer.test\r\nTo: ${acmeAddress}\r\nSubject: Big\r\n\r\n${'0123456789abcdef\r\n'.repeat(LIMIT / 16)}`;
    const undeclared = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, big);
    expect(undeclared.data?.code).toBe(552);
    expect(await countRows('email_messages')).toBe(rows);
  });

  it('stores messages over the per-sender limit as rate_limited and does nothing else', async () => {
    const deps = inboundDepsOf(harness);
    const strict = await startSmtpReceiver(
      { ...deps, config: { ...deps.config, INBOUND_MAX_PER_SENDER_PER_HOUR: PER_SENDER } },
      { port: 0, host: '127.0.0.1' },
    );
    const send = (options: Parameters<ReturnType<typeof smtpTransport>['sendMail']>[0]) =>
      smtpTransport(strict.port).sendMail({ to: acmeAddress, ...options });
    const sender = `flood-${dialect}@flood.test`;
    const tickets = await countRows('tickets');
    const dispositions: string[] = [];
    for (let index = 0; index < PER_SENDER + 2; index++) {
      const messageId = nextId('flood');
      await send({ from: sender, subject: `Flood ${index}`, text: 'spam', messageId });
      dispositions.push((await emailRow(messageId))?.disposition ?? 'missing');
    }
    expect(dispositions).toEqual([...Array(PER_SENDER).fill('ticket_created'), 'rate_limited', 'rate_limited']);
    expect(await countRows('tickets')).toBe(tickets + PER_SENDER);
    // Those past the limit keep their headers only: the original is not stored.
    const kept = await harness.db
      .selectFrom('email_messages')
      .select(['disposition', 'raw', 'raw_size', 'subject', 'headers'])
      .where('organization_id', '=', acme.organizationId)
      .where('from_address', '=', sender)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of kept) {
      expect(row.raw === null, row.disposition).toBe(row.disposition === 'rate_limited');
      expect(Number(row.raw_size)).toBeGreaterThan(0);
      expect(row.headers).toContain('Subject');
    }
    expect(kept.filter((row) => row.disposition === 'rate_limited').map((row) => row.subject)).toEqual(['Flood 4', 'Flood 5']);
    // Per organization: the same sender still reaches another one.
    const elsewhere = nextId('flood');
    await send({ from: sender, to: globexAddress, subject: 'Hello Globex', text: 'hi', messageId: elsewhere });
    expect((await emailRow(elsewhere, globex.organizationId))?.disposition).toBe('ticket_created');
    // An hour later the sender may write again.
    harness.clock.advance(3_600_001);
    const later = nextId('flood');
    await send({ from: sender, subject: 'Later', text: 'hi', messageId: later });
    expect((await emailRow(later))?.disposition).toBe('ticket_created');
    await strict.close();
  });

  it("never threads onto another organization's ticket through a forged In-Reply-To", async () => {
    const theirs = nextId('globex');
    await send({ to: globexAddress, subject: 'Globex secret', text: 'secret', messageId: theirs });
    const globexTicket = await ticketOf(theirs, globex.organizationId);
    const forged = nextId('forged');
    const info = await send({
      subject: 'Re: Globex secret',
      text: 'let me in',
      inReplyTo: theirs,
      references: [theirs],
      messageId: forged,
    });
    expect(info.response).toMatch(/ticket_created/);
    const acmeTicket = await ticketOf(forged);
    expect(acmeTicket.id).not.toBe(globexTicket.id);
    const globexComments = await ok('GET', `/v1/tickets/${globexTicket.id}/comments`, undefined, globex.headers);
    expect(globexComments.data).toEqual([]);
  });

  it('files one message to mailboxes of two organizations in each, once', async () => {
    const messageId = nextId('both');
    const info = await send({ to: [acmeAddress, globexAddress], subject: 'To both', text: 'hello both', messageId });
    expect(info.accepted).toHaveLength(2);
    expect((await ticketOf(messageId)).title).toBe('To both');
    expect((await ticketOf(messageId, globex.organizationId)).title).toBe('To both');
  });

  it('takes bad input without crashing: broken MIME, odd encodings, a 10,000-character subject, an empty message', async () => {
    const empty = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [acmeAddress] }, '');
    expect(empty.data?.code).toBe(554);
    const broken = [
      'From: jane@customer.test',
      `To: ${acmeAddress}`,
      `Message-ID: <broken-${dialect}@customer.test>`,
      'Subject: =?utf-8?B?not base64 at all?=',
      'Content-Type: multipart/mixed; boundary="never-closed"',
      '',
      '--never-closed',
      'Content-Type: text/plain; charset=x-unknown-charset',
      'Content-Transfer-Encoding: base64',
      '',
      '!!!! not base64 ####',
      '--never-closed',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'bytes: \u00ff\u00fe and a NUL: \u0000 end',
    ].join('\r\n');
    const brokenReply = await sendRaw(
      receiver.port,
      { from: 'jane@customer.test', to: [acmeAddress] },
      Buffer.from(broken, 'latin1'),
    );
    expect(brokenReply.data?.code).toBe(250);
    const brokenTicket = await ticketOf(`<broken-${dialect}@customer.test>`);
    expect(brokenTicket.description).not.toContain('\u0000');
    const long = nextId('long');
    await send({ subject: `${'Long '.repeat(2000)}`, text: 'long subject', messageId: long });
    const longTicket = await ticketOf(long);
    expect([...longTicket.title]).toHaveLength(500);
    expect(longTicket.title.endsWith('…')).toBe(true);
    const headerless = await sendRaw(
      receiver.port,
      { from: 'jane@customer.test', to: [acmeAddress] },
      'just some text, no headers\r\n',
    );
    expect(headerless.data?.code).toBe(250);
    expect(headerless.data?.text).toMatch(/no_sender/);
  });

  it('offers STARTTLS only with a certificate, and takes mail over it', async () => {
    const plain = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [] }, '');
    expect(plain.ehlo.text).not.toMatch(/STARTTLS/);
    expect(plain.ehlo.text).not.toMatch(/AUTH/);
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
    const tls = { cert: readFileSync(join(fixtures, 'smtp-tls.crt')), key: readFileSync(join(fixtures, 'smtp-tls.key')) };
    const secured = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1', tls });
    try {
      const offered = await sendRaw(secured.port, { from: 'jane@customer.test', to: [] }, '');
      expect(offered.ehlo.text).toMatch(/STARTTLS/);
      const messageId = nextId('tls');
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: secured.port,
        secure: false,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      });
      const info = await transport.sendMail({
        from: 'jane@customer.test',
        to: acmeAddress,
        subject: 'Over TLS',
        text: 'x',
        messageId,
      });
      expect(info.response).toMatch(/^250 .*ticket_created/);
      expect((await ticketOf(messageId)).title).toBe('Over TLS');
    } finally {
      await secured.close();
    }
  });

  it('takes no mail for an unverified mailbox, and never takes its address for a loop', async () => {
    const pending = `pending-${dialect}@acme.test`;
    const created = await ok('POST', '/v1/mailboxes', {
      address: pending,
      teamId: support.teamId,
      displayName: 'P',
      delivery: 'smtp',
    });
    expect(created.data.verification.status).toBe('unverified');
    const reply = replyAddressFor(pending, { id: harness.ids.ulid(), identifier: 'sup-1' }, decodeSecretKey(INBOUND_SECRET_KEY));
    const refused = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [pending, reply] }, 'x');
    expect(refused.rcpt.map((answer) => answer.code)).toEqual([550, 550]);
    // Another organization claiming a customer's address silences nobody: the customer's mail is a ticket.
    const victim = `victim-${dialect}@customer.test`;
    const claim = await ok(
      'POST',
      '/v1/mailboxes',
      { address: victim, teamId: (await makeTeam(harness, globex)).teamId, displayName: 'Not theirs', delivery: 'smtp' },
      globex.headers,
    );
    expect(claim.data.verification.status).toBe('unverified');
    const messageId = nextId('victim');
    const info = await send({ from: victim, subject: 'Please help', text: 'My order is late.', messageId });
    expect(info.response).toMatch(/ticket_created/);
    expect((await ticketOf(messageId)).requestorEmail).toBe(victim);
    // Verified, the address is Switchboard's own: mail from it is a loop, and mail to it is taken.
    await verifyMailbox(harness, created.data.id);
    const looped = nextId('looped');
    expect((await send({ from: pending, subject: 'From ourselves', text: 'x', messageId: looped })).response).toMatch(/loop/);
    const taken = nextId('taken');
    expect((await send({ to: pending, subject: 'Now it works', text: 'x', messageId: taken })).response).toMatch(
      /ticket_created/,
    );
  });

  it("answers 451 while the mailbox's team is archived, and stores nothing", async () => {
    const team = await makeTeam(harness, acme);
    const address = `archived-${dialect}@acme.test`;
    const archived = await ok('POST', '/v1/mailboxes', {
      address,
      teamId: team.teamId,
      displayName: 'Archived',
      delivery: 'smtp',
    });
    await verifyMailbox(harness, archived.data.id);
    await harness.db
      .updateTable('teams')
      .set({ archived_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', team.teamId)
      .execute();
    const rows = await countRows('email_messages');
    const raw = await composeMail({
      from: 'jane@customer.test',
      to: address,
      subject: 'Anyone?',
      text: 'x',
      messageId: nextId('archived'),
    });
    const sent = await sendRaw(receiver.port, { from: 'jane@customer.test', to: [address] }, raw);
    expect(sent.data?.code).toBe(451);
    expect(await countRows('email_messages')).toBe(rows);
  });
});
