import { generateKeyPairSync } from 'node:crypto';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { verifyDkim } from '../../../test/dkim.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp, testConfig } from '../../../test/harness.js';
import { verifyMailbox } from '../../../test/inbound.js';
import { startSmtp } from '../../../test/smtp.js';
import { main } from '../../cli.js';
import { dkimSigningOf } from '../../config.js';
import { readJson } from '../../db/dialect.js';
import { decodeSecretKey } from '../../lib/secret-box.js';
import { insertTeamMember } from '../../platform/teams/team.repository.js';
import { createOutboxWorker } from '../outbox/outbox.worker.js';
import { replyAddressFor } from './reply-address.js';

const SECRET_KEY = '7a'.repeat(32);
const SMTP_FROM = 'Switchboard <noreply@switchboard.test>';
const CUSTOMER = 'pat@customer.test';
const silent = pino({ level: 'silent' });

interface Delivered {
  /** SMTP envelope. */
  from: string;
  to: string[];
  raw: string;
  mail: ParsedMail;
}

/** A type, not an interface: inject's headers want an index signature. */
type Headers = { 'x-api-key': string };

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  [field ?? []].flat().flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));
const referencesOf = (mail: ParsedMail) => [mail.references ?? []].flat();
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.each(DIALECTS)('outbound threading of ticket emails on %s', (dialect) => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let billing: TestTeam;
  let desk: TestTeam;
  let ops: TestTeam;
  let ada: { userId: string; headers: Headers };
  let bob: { userId: string; headers: Headers };
  const mailboxes: Record<string, string> = {};

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, { env: { SMTP_URL: smtp.url, SMTP_FROM, SECRET_KEY } });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    ada = await makeUser(harness, acme.organizationId, { name: 'Ada Lovelace', email: 'ada@acme.test' });
    bob = await makeUser(harness, acme.organizationId, { name: 'Bob Stone', email: 'bob@acme.test' });
    billing = await makeTeam(harness, acme, { identifier: 'BILL', name: 'Billing' });
    desk = await makeTeam(harness, acme, { identifier: 'DESK', name: 'Desk' });
    ops = await makeTeam(harness, acme, { identifier: 'OPS', name: 'Operations' });
    for (const member of [ada, bob]) {
      await insertTeamMember(harness.db, {
        team_id: billing.teamId,
        user_id: member.userId,
        organization_id: acme.organizationId,
        is_admin: false,
        invited_by_id: null,
        joined_at: harness.clock.now().toISOString(),
      });
    }
    // Mailboxes straight in the database (the mailbox API is built alongside): Billing has two, the
    // older first; Operations an older one and the organization's default; Desk none.
    mailboxes.support = await insertMailbox(acme, billing.teamId, 'support@acme.test', 'Acme Support');
    mailboxes.billing = await insertMailbox(acme, billing.teamId, 'billing@acme.test', 'Acme Billing');
    mailboxes.ops = await insertMailbox(acme, ops.teamId, 'ops@acme.test', 'Acme Ops');
    mailboxes.hello = await insertMailbox(acme, ops.teamId, 'hello@acme.test', 'Acme', true);
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  async function insertMailbox(org: TestOrganization, teamId: string, address: string, displayName: string, isDefault = false) {
    const id = harness.ids.ulid();
    const at = harness.clock.now().toISOString();
    await harness.db
      .insertInto('mailboxes')
      .values({
        id,
        organization_id: org.organizationId,
        team_id: teamId,
        address,
        display_name: displayName,
        delivery: 'smtp',
        is_default: isDefault,
        verified_at: at,
        verification_method: 'link',
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  /** A message from the customer as the inbound side records it (mail-in writes these). */
  async function receive(
    org: TestOrganization,
    ticketId: string,
    mailboxId: string | null,
    messageId: string,
    extra: { inReplyTo?: string; disposition?: string } = {},
  ) {
    const raw = Buffer.from(`Message-ID: <${messageId}>\r\nSubject: help\r\n\r\nhello\r\n`);
    await harness.db
      .insertInto('email_messages')
      .values({
        id: harness.ids.ulid(),
        organization_id: org.organizationId,
        mailbox_id: mailboxId,
        ticket_id: ticketId,
        direction: 'inbound',
        message_id: messageId,
        in_reply_to: extra.inReplyTo ?? null,
        references_ids: JSON.stringify(extra.inReplyTo ? [extra.inReplyTo] : []),
        from_address: CUSTOMER,
        to_addresses: JSON.stringify(['support@acme.test']),
        cc_addresses: '[]',
        subject: 'help',
        headers: '[]',
        raw,
        raw_size: raw.length,
        disposition: extra.disposition ?? (extra.inReplyTo ? 'reply' : 'ticket_created'),
        created_at: harness.clock.now().toISOString(),
      })
      .execute();
  }

  async function createTicket(org: TestOrganization, teamId: string, extra: object = {}) {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: org.headers,
      payload: { title: 'Refund not received', description: 'I paid twice.', requestorEmail: CUSTOMER, teamId, ...extra },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; ticketIdentifier: string };
  }

  async function comment(ticketId: string, payload: object, headers: Headers) {
    const response = await harness.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/comment`, headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string };
  }
  const publicReply = (ticketId: string, content: string, headers: Headers = ada.headers) =>
    comment(ticketId, { content, shouldSendEmail: true }, headers);

  /** Delivers everything queued to the loopback server with `config`; answers what arrived, parsed. */
  async function deliver(config = harness.config): Promise<Delivered[]> {
    const worker = createOutboxWorker({ db: harness.db, clock: harness.clock, config, log: silent });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 20 && (await worker.runOnce()) > 0; pass++) {
      // Drains what earlier tests queued too.
    }
    await worker.stop();
    return Promise.all(smtp.messages.map(async (message) => ({ ...message, mail: await simpleParser(message.raw) })));
  }
  const to = (recipient: string, delivered: Delivered[]) => delivered.filter((message) => message.to.includes(recipient));
  const aboutTicket = (identifier: string, delivered: Delivered[]) =>
    delivered.filter((message) => message.mail.subject?.includes(`[${identifier}]`));

  async function only(recipient: string, identifier: string, delivered: Delivered[]): Promise<Delivered> {
    const matching = aboutTicket(identifier, to(recipient, delivered));
    expect(matching, `mail to ${recipient} about ${identifier}`).toHaveLength(1);
    return matching[0] as Delivered;
  }

  const emailRow = (messageId: string) =>
    harness.db
      .selectFrom('email_messages')
      .selectAll()
      .where('message_id', '=', messageId.replace(/^<|>$/g, ''))
      .executeTakeFirstOrThrow();
  const replyAddress = (ticket: { id: string; ticketIdentifier: string }, mailbox: string) =>
    replyAddressFor(mailbox, { id: ticket.id, identifier: ticket.ticketIdentifier }, decodeSecretKey(SECRET_KEY));

  it("an agent's public reply reaches the customer threaded under their email, from the mailbox, answering to the ticket's reply address", async () => {
    const ticket = await createTicket(acme, billing.teamId);
    const id = ticket.ticketIdentifier;
    await receive(acme, ticket.id, mailboxes.support as string, 'first-1@customer.test');
    await deliver();

    const reply = await publicReply(ticket.id, 'We sent the refund today.');
    // Recorded with its Message-ID in the comment's transaction, before any delivery.
    const queued = await harness.db
      .selectFrom('email_messages')
      .selectAll()
      .where('comment_id', '=', reply.id)
      .executeTakeFirstOrThrow();
    const outbox = await harness.db
      .selectFrom('email_outbox')
      .select(['id', 'message_id'])
      .where('dedupe_key', '=', `comment:${reply.id}`)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({
      organization_id: acme.organizationId,
      mailbox_id: mailboxes.support,
      ticket_id: ticket.id,
      outbox_id: outbox.id,
      direction: 'outbound',
      in_reply_to: 'first-1@customer.test',
      from_address: 'support@acme.test',
      from_name: 'Acme Support',
      subject: `Re: [${id}] Refund not received`,
      disposition: 'queued',
      thread: 'customer',
      raw: null,
    });
    expect(queued.message_id).toMatch(/^[0-9A-Z]{26}@acme\.test$/);
    expect(outbox.message_id).toBe(`<${queued.message_id}>`);
    expect(readJson(queued.references_ids)).toEqual(['first-1@customer.test']);
    expect(readJson(queued.to_addresses)).toEqual([CUSTOMER]);
    expect(readJson<[string, string][]>(queued.headers)).toEqual([
      ['From', '"Acme Support" <support@acme.test>'],
      ['To', CUSTOMER],
      ['Subject', `Re: [${id}] Refund not received`],
      ['Message-ID', `<${queued.message_id}>`],
      ['In-Reply-To', '<first-1@customer.test>'],
      ['References', '<first-1@customer.test>'],
      ['Reply-To', `"Acme Support" <${replyAddress(ticket, 'support@acme.test')}>`],
    ]);

    const message = await only(CUSTOMER, id, await deliver());
    const { mail } = message;
    expect(message.from).toBe('support@acme.test');
    expect(mail.messageId).toBe(`<${queued.message_id}>`);
    expect(mail.inReplyTo).toBe('<first-1@customer.test>');
    expect(referencesOf(mail)).toEqual(['<first-1@customer.test>']);
    expect(addresses(mail.from)).toEqual([{ name: 'Acme Support', address: 'support@acme.test' }]);
    expect(addresses(mail.replyTo)).toEqual([{ name: 'Acme Support', address: replyAddress(ticket, 'support@acme.test') }]);
    expect(mail.subject).toBe(`Re: [${id}] Refund not received`);
    expect(occurrences(mail.subject ?? '', `[${id}]`)).toBe(1);
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(mail.text).toContain('We sent the refund today.');
    expect(mail.html).toContain('<p>We sent the refund today.</p>');
    expect(message.raw).not.toMatch(/^DKIM-Signature:/im);
    // What was sent is kept, byte for byte, for GET …/emails/{id}/raw.
    const sent = await emailRow(queued.message_id);
    expect(sent.disposition).toBe('sent');
    expect(Buffer.from(sent.raw ?? []).toString('utf8')).toBe(message.raw);
    expect(Number(sent.raw_size)).toBe(Buffer.byteLength(message.raw));
  });

  it('a second reply threads under the first, and a reply after the customer answers cites the answer', async () => {
    const ticket = await createTicket(acme, billing.teamId);
    const id = ticket.ticketIdentifier;
    await receive(acme, ticket.id, mailboxes.support as string, 'root-2@customer.test');
    await publicReply(ticket.id, 'First answer.');
    const first = (await only(CUSTOMER, id, await deliver())).mail;
    await publicReply(ticket.id, 'Second answer.');
    const second = (await only(CUSTOMER, id, await deliver())).mail;
    expect(second.inReplyTo).toBe(first.messageId);
    expect(referencesOf(second)).toEqual(['<root-2@customer.test>', first.messageId]);
    expect(second.subject).toBe(`Re: [${id}] Refund not received`);
    expect(second.messageId).not.toBe(first.messageId);

    // The customer answers the second (as received by the inbound side), then the agent again.
    await receive(acme, ticket.id, mailboxes.support as string, 'answer-3@customer.test', { inReplyTo: second.messageId });
    await publicReply(ticket.id, 'Third answer.');
    const third = (await only(CUSTOMER, id, await deliver())).mail;
    expect(third.inReplyTo).toBe('<answer-3@customer.test>');
    expect(referencesOf(third)).toEqual([
      '<root-2@customer.test>',
      first.messageId,
      second.messageId,
      '<answer-3@customer.test>',
    ]);
    // An auto-reply set aside by the inbound side is not cited: the customer never saw it.
    await receive(acme, ticket.id, mailboxes.support as string, 'vacation-4@customer.test', { disposition: 'auto_reply' });
    await publicReply(ticket.id, 'Fourth answer.');
    const fourth = (await only(CUSTOMER, id, await deliver())).mail;
    expect(fourth.inReplyTo).toBe(third.messageId);
    expect(referencesOf(fourth)).not.toContain('<vacation-4@customer.test>');
  });

  it("cites a long thread's first message and its latest nine", async () => {
    const ticket = await createTicket(acme, billing.teamId);
    const ids = Array.from({ length: 14 }, (_, i) => `long-${i}@customer.test`);
    for (const messageId of ids) {
      harness.clock.advance(1_000);
      await receive(acme, ticket.id, mailboxes.support as string, messageId);
    }
    await publicReply(ticket.id, 'Catching up.');
    const { mail } = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(mail.inReplyTo).toBe('<long-13@customer.test>');
    expect(referencesOf(mail)).toEqual([ids[0], ...ids.slice(5)].map((messageId) => `<${messageId}>`));
  });

  it('sends from the mailbox the ticket first came to, else its team mailbox (the default first), else the default mailbox', async () => {
    // Came to billing@ although support@ is the team's older mailbox.
    const cameToBilling = await createTicket(acme, billing.teamId);
    await receive(acme, cameToBilling.id, mailboxes.billing as string, 'to-billing@customer.test');
    // No email yet: the team's oldest mailbox.
    const byApi = await createTicket(acme, billing.teamId);
    // Operations has an older mailbox and the organization's default: the default.
    const opsTicket = await createTicket(acme, ops.teamId);
    // Desk has no mailbox: the organization's default.
    const deskTicket = await createTicket(acme, desk.teamId);
    for (const ticket of [cameToBilling, byApi, opsTicket, deskTicket]) {
      await publicReply(ticket.id, 'Noted.', acme.headers);
    }
    const delivered = await deliver();
    const sender = async (ticket: { id: string; ticketIdentifier: string }) => {
      const { mail } = await only(CUSTOMER, ticket.ticketIdentifier, delivered);
      return { from: addresses(mail.from), replyTo: addresses(mail.replyTo), messageId: mail.messageId };
    };
    expect(await sender(cameToBilling)).toEqual({
      from: [{ name: 'Acme Billing', address: 'billing@acme.test' }],
      replyTo: [{ name: 'Acme Billing', address: replyAddress(cameToBilling, 'billing@acme.test') }],
      messageId: expect.stringMatching(/@acme\.test>$/),
    });
    expect((await sender(byApi)).from).toEqual([{ name: 'Acme Support', address: 'support@acme.test' }]);
    expect(await sender(opsTicket)).toMatchObject({
      from: [{ name: 'Acme', address: 'hello@acme.test' }],
      replyTo: [{ name: 'Acme', address: replyAddress(opsTicket, 'hello@acme.test') }],
    });
    expect(await sender(deskTicket)).toMatchObject({
      from: [{ name: 'Acme', address: 'hello@acme.test' }],
      replyTo: [{ name: 'Acme', address: replyAddress(deskTicket, 'hello@acme.test') }],
    });
  });

  it('a ticket with no mailbox is sent from SMTP_FROM without a reply address, still tagged and threaded; another organization mailbox is never used', async () => {
    const team = await makeTeam(harness, globex, { identifier: 'GLX', name: 'Globex desk' });
    const ticket = await createTicket(globex, team.teamId);
    // A message recorded against the ticket naming Acme's mailbox (a forged reference): not Globex's sender.
    await receive(globex, ticket.id, mailboxes.support as string, 'forged@customer.test');
    await publicReply(ticket.id, 'Hello from Globex.', globex.headers);
    const first = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(addresses(first.mail.from)).toEqual([{ name: 'Switchboard', address: 'noreply@switchboard.test' }]);
    expect(first.mail.replyTo).toBeUndefined();
    expect(first.raw).not.toMatch(/^Reply-To:/im);
    expect(first.mail.messageId).toMatch(/^<[0-9A-Z]{26}@switchboard\.test>$/);
    expect(first.mail.subject).toBe(`Re: [${ticket.ticketIdentifier}] Refund not received`);
    const row = await emailRow(first.mail.messageId ?? '');
    expect(row).toMatchObject({ mailbox_id: null, from_address: 'noreply@switchboard.test', from_name: 'Switchboard' });
    expect(readJson<[string, string][]>(row.headers)?.map(([name]) => name)).not.toContain('Reply-To');

    await publicReply(ticket.id, 'And again.', globex.headers);
    const second = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(second.mail.inReplyTo).toBe(first.mail.messageId);
    expect(referencesOf(second.mail)).toEqual(['<forged@customer.test>', first.mail.messageId]);
  });

  it('never sends from an unverified mailbox, nor with its reply address; once verified, it is the sender', async () => {
    const team = await makeTeam(harness, globex, { identifier: 'UNV', name: 'Unverified desk' });
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/mailboxes',
      headers: globex.headers,
      payload: {
        address: 'help@globex.test',
        teamId: team.teamId,
        displayName: 'Globex Help',
        delivery: 'smtp',
        isDefault: true,
      },
    });
    expect(created.json().data.verification.status).toBe('unverified');
    const mailboxId = created.json().data.id;
    const ticket = await createTicket(globex, team.teamId);
    await receive(globex, ticket.id, mailboxId, 'to-unverified@customer.test');
    await publicReply(ticket.id, 'Not from there.', globex.headers);
    const first = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(addresses(first.mail.from)).toEqual([{ name: 'Switchboard', address: 'noreply@switchboard.test' }]);
    expect(first.raw).not.toMatch(/^Reply-To:/im);
    expect(first.raw).not.toContain('globex.test');
    expect(await emailRow(first.mail.messageId ?? '')).toMatchObject({
      mailbox_id: null,
      from_address: 'noreply@switchboard.test',
    });

    await verifyMailbox(harness, mailboxId);
    await publicReply(ticket.id, 'Now from there.', globex.headers);
    const second = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(addresses(second.mail.from)).toEqual([{ name: 'Globex Help', address: 'help@globex.test' }]);
    expect(addresses(second.mail.replyTo)).toEqual([{ name: 'Globex Help', address: replyAddress(ticket, 'help@globex.test') }]);
  });

  it("agents' notifications are tagged and threaded per agent, and never cited in the customer's thread", async () => {
    const ticket = await createTicket(acme, billing.teamId, { assignedAgentId: ada.userId });
    const id = ticket.ticketIdentifier;
    await receive(acme, ticket.id, mailboxes.support as string, 'start-5@customer.test');
    const assigned = await only('ada@acme.test', id, await deliver());
    expect(assigned.mail.subject).toBe(`[${id}] Assigned to you: Refund not received`);
    expect(assigned.mail.inReplyTo).toBeUndefined();
    expect(addresses(assigned.mail.from)).toEqual([{ name: 'Acme Support', address: 'support@acme.test' }]);
    expect(addresses(assigned.mail.replyTo)).toEqual([
      { name: 'Acme Support', address: replyAddress(ticket, 'support@acme.test') },
    ]);
    expect(assigned.mail.text).toBeTruthy();
    expect(assigned.mail.html).toBeTruthy();

    // A customer reply relayed through the API: Ada's next notification threads under her first.
    await comment(ticket.id, { content: 'Any news?', customerEmail: CUSTOMER }, acme.headers);
    const replied = await only('ada@acme.test', id, await deliver());
    expect(replied.mail.subject).toBe(`[${id}] Customer replied: Refund not received`);
    expect(replied.mail.inReplyTo).toBe(assigned.mail.messageId);
    expect(referencesOf(replied.mail)).toEqual([assigned.mail.messageId]);

    // An internal note mentioning Bob: his own thread, not Ada's.
    const note = await comment(
      ticket.id,
      { content: '@bob@acme.test secret margin is 40%', commentVisibility: 'private' },
      ada.headers,
    );
    const mention = await only('bob@acme.test', id, await deliver());
    expect(mention.mail.inReplyTo).toBeUndefined();
    expect(occurrences(mention.mail.subject ?? '', `[${id}]`)).toBe(1);
    expect((await emailRow(mention.mail.messageId ?? '')).comment_id).toBe(note.id);

    // The customer's next email cites the customer's thread only.
    await publicReply(ticket.id, 'It is on its way.');
    const customerMail = await only(CUSTOMER, id, await deliver());
    expect(customerMail.mail.inReplyTo).toBe('<start-5@customer.test>');
    expect(referencesOf(customerMail.mail)).toEqual(['<start-5@customer.test>']);
    for (const internal of [assigned, replied, mention]) {
      expect(customerMail.raw).not.toContain(internal.mail.messageId);
    }
    expect(customerMail.raw).not.toContain('secret margin');

    const threads = await harness.db
      .selectFrom('email_messages')
      .select(['thread', 'direction', 'to_addresses'])
      .where('ticket_id', '=', ticket.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(threads.map((row) => [row.thread, row.direction, readJson<string[]>(row.to_addresses)])).toEqual([
      [`agent:${ada.userId}`, 'outbound', ['ada@acme.test']],
      ['customer', 'inbound', ['support@acme.test']],
      [`agent:${ada.userId}`, 'outbound', ['ada@acme.test']],
      [`agent:${bob.userId}`, 'outbound', ['bob@acme.test']],
      ['customer', 'outbound', [CUSTOMER]],
    ]);
  });

  it('records nothing when the transaction that queued the email fails', async () => {
    const ticket = await createTicket(acme, billing.teamId);
    await deliver();
    const deskStatus = (
      await harness.app.inject({ method: 'GET', url: `/v1/tickets/statuses?teamId=${desk.teamId}`, headers: acme.headers })
    ).json().data[1] as { id: string };
    const macro = await harness.app.inject({
      method: 'POST',
      url: '/v1/macros',
      headers: acme.headers,
      payload: { name: 'Broken', content: 'Done, closing.', actions: { statusId: deskStatus.id } },
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const count = async (table: 'email_messages' | 'email_outbox') =>
      Number(
        (
          await harness.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { messages: await count('email_messages'), outbox: await count('email_outbox') };
    // The reply and its email are written first; the action of another team's status then fails.
    const applied = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticket.id}/macros/${macro.json().data.id}/apply`,
      headers: acme.headers,
      payload: { shouldSendEmail: true },
    });
    expect(applied.statusCode, applied.body).toBe(400);
    expect({ messages: await count('email_messages'), outbox: await count('email_outbox') }).toEqual(before);
    expect(await deliver()).toEqual([]);
    // The same reply without the failing action: one email queued and recorded.
    const fine = await harness.app.inject({
      method: 'POST',
      url: '/v1/macros',
      headers: acme.headers,
      payload: { name: 'Fine', content: 'Done, closing.' },
    });
    const appliedFine = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticket.id}/macros/${fine.json().data.id}/apply`,
      headers: acme.headers,
      payload: { shouldSendEmail: true },
    });
    expect(appliedFine.statusCode, appliedFine.body).toBe(201);
    expect({ messages: await count('email_messages'), outbox: await count('email_outbox') }).toEqual({
      messages: before.messages + 1,
      outbox: before.outbox + 1,
    });
  });

  it('sends a retried message with the Message-ID it was queued with', async () => {
    const ticket = await createTicket(acme, billing.teamId);
    await deliver();
    const reply = await publicReply(ticket.id, 'Try this.');
    const rejecting = await startSmtp(0, { rejectRecipients: true });
    try {
      expect(await deliver(testConfig({ SMTP_URL: rejecting.url, SMTP_FROM, SECRET_KEY }))).toEqual([]);
    } finally {
      await rejecting.close();
    }
    const outbox = await harness.db
      .selectFrom('email_outbox')
      .select(['id', 'status', 'message_id'])
      .where('dedupe_key', '=', `comment:${reply.id}`)
      .executeTakeFirstOrThrow();
    expect(outbox.status).toBe('undeliverable');
    const retried = await harness.app.inject({ method: 'POST', url: `/v1/outbox/${outbox.id}/retry`, headers: acme.headers });
    expect(retried.statusCode, retried.body).toBe(200);
    const { mail } = await only(CUSTOMER, ticket.ticketIdentifier, await deliver());
    expect(mail.messageId).toBe(outbox.message_id);
    expect((await emailRow(mail.messageId ?? '')).disposition).toBe('sent');
  });

  it('signs with DKIM when DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY are set: the signature verifies and the raw keeps it', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signing = testConfig({
      SMTP_URL: smtp.url,
      SMTP_FROM,
      SECRET_KEY,
      DKIM_DOMAIN: 'acme.test',
      DKIM_SELECTOR: 'sb2026',
      // As an env file holds it: one line, line breaks written \n.
      DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
    });
    const ticket = await createTicket(acme, billing.teamId);
    await receive(acme, ticket.id, mailboxes.support as string, 'to-sign@customer.test');
    await deliver();
    await publicReply(ticket.id, 'Signed, sealed, delivered. Ünïcode too.');
    const message = await only(CUSTOMER, ticket.ticketIdentifier, await deliver(signing));
    const check = verifyDkim(message.raw, publicKey);
    expect(check.tags).toMatchObject({ v: '1', a: 'rsa-sha256', d: 'acme.test', s: 'sb2026' });
    expect(check.tags.h?.split(':')).toEqual(
      expect.arrayContaining(['from', 'to', 'subject', 'message-id', 'in-reply-to', 'references', 'reply-to']),
    );
    expect(check).toMatchObject({ bodyHashMatches: true, signatureValid: true });
    // The same check fails on a changed body or a changed signed header.
    const tamperedBody = verifyDkim(message.raw.replace('Signed, sealed', 'Signed, opened'), publicKey);
    expect(tamperedBody.bodyHashMatches).toBe(false);
    const tamperedHeader = verifyDkim(message.raw.replace(/^To: .*$/m, 'To: mallory@evil.test'), publicKey);
    expect(tamperedHeader).toMatchObject({ bodyHashMatches: true, signatureValid: false });
    // A key other than the published one does not verify it.
    expect(verifyDkim(message.raw, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey).signatureValid).toBe(false);
    // The kept raw is what was signed.
    const row = await emailRow(message.mail.messageId ?? '');
    expect(Buffer.from(row.raw ?? []).toString('utf8')).toBe(message.raw);
    expect(message.raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256/);
  });
});

describe('DKIM settings at start', () => {
  const pem = (type: 'rsa' | 'ec', bits = 2048) =>
    (type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: bits }).privateKey
      : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    )
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();

  async function serve(env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      ['serve'],
      { LOG_LEVEL: 'silent', ...env },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  it.each([
    [
      { DKIM_DOMAIN: 'acme.test' },
      /DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together: DKIM_DOMAIN set, DKIM_SELECTOR and DKIM_PRIVATE_KEY missing/,
    ],
    [{ DKIM_SELECTOR: 'sb', DKIM_PRIVATE_KEY: 'x' }, /DKIM_SELECTOR and DKIM_PRIVATE_KEY set, DKIM_DOMAIN missing/],
    [
      { DKIM_DOMAIN: 'acme.test', DKIM_SELECTOR: 'sb', DKIM_PRIVATE_KEY: 'not a key' },
      /DKIM_PRIVATE_KEY must be a PEM private key/,
    ],
    [{ DKIM_DOMAIN: 'acme.test', DKIM_SELECTOR: 'sb', DKIM_PRIVATE_KEY: 'EC' }, /DKIM_PRIVATE_KEY must be an RSA key .*got ec/],
    [{ DKIM_DOMAIN: 'acme.test', DKIM_SELECTOR: 'sb', DKIM_PRIVATE_KEY: 'SHORT' }, /at least 1024 bits .*got 512/],
    [{ DKIM_DOMAIN: 'acme', DKIM_SELECTOR: 'sb', DKIM_PRIVATE_KEY: 'RSA' }, /DKIM_DOMAIN must be a domain name/],
    [{ DKIM_DOMAIN: 'acme.test', DKIM_SELECTOR: 'sb;x=1', DKIM_PRIVATE_KEY: 'RSA' }, /DKIM_SELECTOR must be a DNS label/],
  ])('refuses %j in one line naming the problem, without echoing the key', async (settings, message) => {
    const keys: Record<string, string> = { EC: pem('ec'), SHORT: pem('rsa', 512), RSA: pem('rsa') };
    const env = Object.fromEntries(
      Object.entries(settings).map(([name, value]) => [name, name === 'DKIM_PRIVATE_KEY' ? (keys[value] ?? value) : value]),
    );
    const run = await serve(env);
    expect(run.code).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/^Invalid configuration: /);
    expect(run.err[0]).toMatch(message);
    for (const value of Object.values(env)) {
      if (value.length > 40) {
        expect(run.err[0]).not.toContain(value.slice(30, 60));
      }
    }
    expect(run.err[0]).not.toContain('not a key');
  });

  it('accepts the three together, the key as PEM lines or on one line with \\n', () => {
    const key = pem('rsa');
    for (const written of [key, key.replace(/\n/g, '\\n')]) {
      const config = testConfig({ DKIM_DOMAIN: 'Mail.Acme.test', DKIM_SELECTOR: 'sb2026', DKIM_PRIVATE_KEY: written });
      const signing = dkimSigningOf(config);
      expect(signing).toMatchObject({ domainName: 'mail.acme.test', keySelector: 'sb2026' });
      expect(signing?.privateKey.trim()).toBe(key.trim());
    }
    expect(dkimSigningOf(testConfig())).toBeNull();
  });
});
