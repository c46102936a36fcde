import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { decodeQuotedPrintable, startSmtp } from '../../../test/smtp.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';
import { setUserPassword } from '../auth/credential.repository.js';
import { hashPassword } from '../auth/password.js';
import { createRoutingWorker } from '../routing/routing.worker.js';

interface Mail {
  to: string;
  subject: string;
  /** Both parts, quoted-printable decoded. */
  body: string;
}

/** The loopback SMTP server's messages, one per recipient, with subject and decoded body. */
function mailsOf(smtp: Awaited<ReturnType<typeof startSmtp>>): Mail[] {
  return smtp.messages.flatMap((message) => {
    const subject = (message.raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ');
    return message.to.map((to) => ({ to, subject, body: decodeQuotedPrintable(message.raw) }));
  });
}

interface Person {
  userId: string;
  name: string;
  email: string;
  headers: { 'x-api-key': string };
}

describe.each(DIALECTS)('reopen on reply and ticket notifications on %s', (dialect) => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let billing: TestTeam;
  let ada: Person;
  let bob: Person;
  let carol: Person;
  let relay: Person;
  let admin: Person;

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Acme Support <help@acme.test>' },
    });
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: `admin-${dialect}@acme.test` });
    globex = await makeOrganization(harness);
    const person = async (name: string, email: string): Promise<Person> => {
      const user = await makeUser(harness, acme.organizationId, { name, email });
      return { userId: user.userId, name, email, headers: user.headers };
    };
    ada = await person('Ada Lovelace', 'ada@acme.test');
    bob = await person('Bob Stone', 'bob@acme.test');
    carol = await person('Carol Diaz', 'carol@acme.test');
    relay = await person('Mail Relay', 'relay@acme.test');
    const adminRow = await harness.db.selectFrom('users').select('name').where('id', '=', acme.userId).executeTakeFirstOrThrow();
    admin = { userId: acme.userId, name: adminRow.name, email: `admin-${dialect}@acme.test`, headers: acme.headers };
    billing = await team('BILL', 'Billing', [ada, bob]);
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = acme.headers) {
    const response = await harness.app.inject({ method, url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  }

  /** A team of exactly these members (the factory's owner, the admin, is taken out). */
  async function team(identifier: string, name: string, members: { userId: string }[], configuration?: object) {
    const made = await makeTeam(harness, acme, { identifier, name });
    await harness.db.deleteFrom('team_members').where('team_id', '=', made.teamId).where('user_id', '=', acme.userId).execute();
    for (const member of members) {
      await ok('POST', `/v1/teams/${made.teamId}/members`, { userId: member.userId });
    }
    if (configuration) {
      await ok('PATCH', `/v1/teams/${made.teamId}/configurations`, configuration);
    }
    return made;
  }

  const createTicket = async (extra: object = {}, headers = acme.headers) =>
    (
      await ok(
        'POST',
        '/v1/tickets',
        {
          title: 'Refund not received',
          description: 'I paid twice for order 1234 and got one refund.',
          requestorEmail: 'pat@customer.test',
          teamId: billing.teamId,
          ...extra,
        },
        headers,
      )
    ).data as { id: string; ticketIdentifier: string };
  const getTicket = async (id: string) => (await ok('GET', `/v1/tickets/${id}`)).data;
  const comment = (id: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `/v1/tickets/${id}/comment`, headers, payload });
  const customerReply = async (id: string, content: string, headers = relay.headers) => {
    const response = await comment(id, { content, customerEmail: 'pat@customer.test' }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const preferences = (payload: object, headers: { 'x-api-key': string }) =>
    harness.app.inject({ method: 'PATCH', url: '/v1/users/me/notifications', headers, payload });
  const outboxCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('email_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Delivers everything queued to the loopback server; answers the mail about `identifier`. */
  async function delivered(identifier: string): Promise<Mail[]> {
    return (await deliverAll()).filter((mail) => mail.subject.startsWith(`[${identifier}]`));
  }
  async function deliverAll(): Promise<Mail[]> {
    const worker = createOutboxWorker({
      db: harness.db,
      clock: harness.clock,
      config: harness.config,
      log: pino({ level: 'silent' }),
    });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 20 && (await worker.runOnce()) > 0; pass++) {
      // Drains earlier tests' mail too.
    }
    await worker.stop();
    return mailsOf(smtp);
  }
  const recipients = (mails: Mail[]) => mails.map((mail) => mail.to).sort();

  describe('reopen on a customer reply', () => {
    it("moves a closed ticket back to the team's default open status and clears closedAt", async () => {
      const ticket = await createTicket();
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Closed', isClosed: true, closedAt: TEST_NOW });

      const reply = await customerReply(ticket.id, 'It still has not arrived.');
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Open', isClosed: false, closedAt: null });
      // The timeline records the reopen as a status change by the customer contact.
      const [latest] = (await ok('GET', `/v1/tickets/${ticket.id}/activities`)).data;
      expect(latest).toMatchObject({
        field: 'status',
        oldValue: { name: 'Closed' },
        newValue: { name: 'Open' },
        actor: { type: 'customer_contact', id: reply.customerContactId },
      });
      const mails = await delivered(ticket.ticketIdentifier);
      const reopened = mails.filter(
        (mail) => mail.subject === `[${ticket.ticketIdentifier}] Reopened by a customer reply: Refund not received`,
      );
      expect(recipients(reopened)).toEqual([ada.email, bob.email]);
      expect(reopened[0]?.body).toContain('The ticket was closed and is open again.');
      expect(reopened[0]?.body).toContain('> It still has not arrived.');
    });

    it("an agent's comment or note leaves a closed ticket closed; a reply leaves an open status as it is", async () => {
      const ticket = await createTicket();
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      expect((await comment(ticket.id, { content: 'Closing note' }, ada.headers)).statusCode).toBe(201);
      expect((await comment(ticket.id, { content: 'internal', commentType: 'note' }, ada.headers)).statusCode).toBe(201);
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Closed', isClosed: true });

      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'On hold' });
      await customerReply(ticket.id, 'Any news?');
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'On hold', isClosed: false, closedAt: null });
    });

    it('concurrent replies on a closed ticket reopen it once, and each tells the assignee once', async () => {
      const ticket = await createTicket({ assignedAgentId: ada.userId });
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      await delivered(ticket.ticketIdentifier);
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          comment(ticket.id, { content: `burst reply ${i}`, customerEmail: 'pat@customer.test' }, relay.headers),
        ),
      );
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array(8).fill(201));
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Open', closedAt: null });
      const activities = (await ok('GET', `/v1/tickets/${ticket.id}/activities`)).data as {
        field: string;
        actor: { type: string };
      }[];
      expect(activities.filter((entry) => entry.field === 'status' && entry.actor.type === 'customer_contact')).toHaveLength(1);
      const mails = await delivered(ticket.ticketIdentifier);
      expect(mails).toHaveLength(8);
      expect(new Set(mails.map((mail) => mail.to))).toEqual(new Set([ada.email]));
      expect(mails.filter((mail) => mail.subject.includes('Reopened by a customer reply'))).toHaveLength(1);
    });

    it('a ticket merged into another stays closed: it lives on in the other', async () => {
      const source = await createTicket();
      const target = await createTicket();
      await ok('POST', `/v1/tickets/${source.id}/merge`, { targetTicketId: target.id });
      expect(await getTicket(source.id)).toMatchObject({ isClosed: true });
      await customerReply(source.id, 'Replying to the old thread');
      expect(await getTicket(source.id)).toMatchObject({ isClosed: true });
    });

    it('a reply that fails reopens nothing and queues nothing', async () => {
      const ticket = await createTicket();
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      const before = await outboxCount();
      const failed = await comment(
        ticket.id,
        { content: 'Hello?', customerEmail: 'pat@customer.test', attachmentIds: ['01KAAAAAAAAAAAAAAAAAAAAAAA'] },
        relay.headers,
      );
      expect(failed.statusCode).toBe(400);
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Closed', isClosed: true });
      expect(await outboxCount()).toBe(before);
    });

    it('a replayed reply (same deDuplicationKey) neither reopens again nor emails again', async () => {
      const ticket = await createTicket({ assignedAgentId: ada.userId });
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      const payload = { content: 'Once only', customerEmail: 'pat@customer.test', deDuplicationKey: 'reply-1' };
      expect((await comment(ticket.id, payload, relay.headers)).statusCode).toBe(201);
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Closed' });
      expect((await comment(ticket.id, payload, relay.headers)).statusCode).toBe(200);
      expect(await getTicket(ticket.id)).toMatchObject({ status: 'Closed' });
      const replies = (await delivered(ticket.ticketIdentifier)).filter((mail) => mail.body.includes('Once only'));
      expect(recipients(replies)).toEqual([ada.email]);
    });
  });

  describe('assignment', () => {
    it('a new unassigned ticket tells its team; an assignment by PATCH tells the assignee, never the author', async () => {
      const ticket = await createTicket();
      const created = await delivered(ticket.ticketIdentifier);
      expect(recipients(created)).toEqual([ada.email, bob.email]);
      expect(created[0]?.subject).toBe(`[${ticket.ticketIdentifier}] New ticket for Billing: Refund not received`);
      expect(created[0]?.body).toContain('nobody is assigned to it yet');

      await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: ada.userId });
      const assigned = await delivered(ticket.ticketIdentifier);
      expect(recipients(assigned)).toEqual([ada.email]);
      expect(assigned[0]?.subject).toBe(`[${ticket.ticketIdentifier}] Assigned to you: Refund not received`);
      expect(assigned[0]?.body).toContain(`${admin.name} assigned ${ticket.ticketIdentifier} to you.`);
      expect(assigned[0]?.body).toContain('> I paid twice for order 1234 and got one refund.');
      expect(assigned[0]?.body).toContain('Team: Billing');

      // Bob takes it himself: nobody is told of their own change; the same assignee again is no change.
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: bob.userId }, bob.headers);
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentEmail: 'bob@acme.test' });
      expect(await delivered(ticket.ticketIdentifier)).toEqual([]);
    });

    it('a bulk assignment tells the assignee once per ticket', async () => {
      const first = await createTicket();
      const second = await createTicket();
      await ok('POST', '/v1/tickets/bulk', { ticketIds: [first.id, second.id], change: { assignedAgentId: ada.userId } });
      const mails = (await deliverAll()).filter((mail) => mail.subject.includes('Assigned to you'));
      for (const ticket of [first, second]) {
        expect(recipients(mails.filter((mail) => mail.subject.startsWith(`[${ticket.ticketIdentifier}]`)))).toEqual([ada.email]);
      }
    });

    it('an assignment at creation tells the assignee only; a ticket created closed tells nobody', async () => {
      const ticket = await createTicket({ assignedAgentEmail: 'carol@acme.test' });
      const mails = await delivered(ticket.ticketIdentifier);
      expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
        [carol.email, `[${ticket.ticketIdentifier}] Assigned to you: Refund not received`],
      ]);
      const imported = await createTicket({ statusName: 'Closed', assignedAgentId: ada.userId });
      expect(await delivered(imported.ticketIdentifier)).toEqual([]);
    });

    it('routing: at creation, and by the waiting-tickets worker, says "Routing assigned"', async () => {
      const dan = await makeUser(harness, acme.organizationId, { name: 'Dan Roe', email: 'dan@acme.test' });
      const desk = await team('ROUTE', 'Routed', [dan], {
        userRoutingStrategy: 'round_robin',
        routingRespectsUserAvailability: true,
      });
      // Dan is offline: the ticket waits, and the team (Dan) hears of it.
      const waiting = await createTicket({ teamId: desk.teamId });
      expect((await getTicket(waiting.id)).assignedAgentId).toBeNull();
      expect((await delivered(waiting.ticketIdentifier)).map((mail) => mail.subject)).toEqual([
        `[${waiting.ticketIdentifier}] New ticket for Routed: Refund not received`,
      ]);

      // Dan comes online without a request of his own: the worker assigns the waiting ticket.
      await harness.db.updateTable('users').set({ status: 'online' }).where('id', '=', dan.userId).execute();
      const worker = createRoutingWorker({
        db: harness.db,
        clock: harness.clock,
        ids: harness.ids,
        config: harness.config,
        secretKey: harness.secretKey,
        log: pino({ level: 'silent' }),
      });
      expect(await worker.runOnce()).toBe(1);
      expect((await getTicket(waiting.id)).assignedAgentId).toBe(dan.userId);
      const byWorker = await delivered(waiting.ticketIdentifier);
      expect(byWorker.map((mail) => [mail.to, mail.subject])).toEqual([
        ['dan@acme.test', `[${waiting.ticketIdentifier}] Assigned to you: Refund not received`],
      ]);
      expect(byWorker[0]?.body).toContain(`Routing assigned ${waiting.ticketIdentifier} to you.`);

      const routed = await createTicket({ teamId: desk.teamId });
      expect((await getTicket(routed.id)).assignedAgentId).toBe(dan.userId);
      const atCreation = await delivered(routed.ticketIdentifier);
      expect(atCreation.map((mail) => mail.to)).toEqual(['dan@acme.test']);
      expect(atCreation[0]?.body).toContain(`Routing assigned ${routed.ticketIdentifier} to you.`);
    });
  });

  describe('customer replies', () => {
    it('go to the assignee, or to the team while nobody is assigned, never to the user who relayed them', async () => {
      const ticket = await createTicket();
      await delivered(ticket.ticketIdentifier);
      await customerReply(ticket.id, 'Any update on my refund?');
      const toTeam = await delivered(ticket.ticketIdentifier);
      expect(recipients(toTeam)).toEqual([ada.email, bob.email]);
      expect(toTeam[0]?.subject).toBe(`[${ticket.ticketIdentifier}] Customer replied: Refund not received`);
      expect(toTeam[0]?.body).toContain(`pat replied on ${ticket.ticketIdentifier}; nobody in Billing is assigned to it yet.`);

      await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: ada.userId });
      await delivered(ticket.ticketIdentifier);
      await customerReply(ticket.id, 'Hello again');
      const toAssignee = await delivered(ticket.ticketIdentifier);
      expect(recipients(toAssignee)).toEqual([ada.email]);
      expect(toAssignee[0]?.body).toContain('which is assigned to you');
      expect(toAssignee[0]?.body).toContain('> Hello again');

      // Ada pastes the customer's email in herself: she is not told of it.
      await customerReply(ticket.id, 'Pasted by Ada', ada.headers);
      expect(await delivered(ticket.ticketIdentifier)).toEqual([]);
    });

    it("an agent's public comment emails no agent", async () => {
      const ticket = await createTicket({ assignedAgentId: ada.userId });
      await delivered(ticket.ticketIdentifier);
      expect((await comment(ticket.id, { content: 'We are on it' }, bob.headers)).statusCode).toBe(201);
      expect(await delivered(ticket.ticketIdentifier)).toEqual([]);
    });
  });

  describe('mentions in internal notes', () => {
    it('reach everyone mentioned by @email or @name, once each, whoever is assigned; never the author', async () => {
      const ticket = await createTicket({ assignedAgentId: bob.userId });
      await delivered(ticket.ticketIdentifier);
      const note = await comment(
        ticket.id,
        {
          content: '@carol@acme.test can you check the ledger? @Bob Stone and @bob@acme.test FYI. Noted by @Ada Lovelace',
          commentType: 'note',
        },
        ada.headers,
      );
      expect(note.statusCode, note.body).toBe(201);
      const mails = await delivered(ticket.ticketIdentifier);
      expect(recipients(mails)).toEqual([bob.email, carol.email]);
      expect(mails[0]?.subject).toBe(`[${ticket.ticketIdentifier}] Ada Lovelace mentioned you: Refund not received`);
      expect(mails[0]?.body).toContain(`Ada Lovelace mentioned you in an internal note on ${ticket.ticketIdentifier}.`);
      expect(mails[0]?.body).toContain('can you check the ledger?');
    });

    it('a mention in a public comment emails nobody; metadata.mentions names users by id', async () => {
      const ticket = await createTicket({ assignedAgentId: bob.userId });
      await delivered(ticket.ticketIdentifier);
      expect((await comment(ticket.id, { content: 'Thanks @Carol Diaz' }, ada.headers)).statusCode).toBe(201);
      expect(await delivered(ticket.ticketIdentifier)).toEqual([]);
      const tagged = await comment(
        ticket.id,
        { content: 'Please look', commentVisibility: 'private', metadata: { mentions: [carol.userId] } },
        ada.headers,
      );
      expect(tagged.statusCode).toBe(201);
      expect(recipients(await delivered(ticket.ticketIdentifier))).toEqual([carol.email]);
    });

    it('on a private ticket, people who cannot see it are not told', async () => {
      const ticket = await createTicket({ isPrivate: true, assignedAgentId: ada.userId });
      await delivered(ticket.ticketIdentifier);
      const note = await comment(
        ticket.id,
        { content: '@Carol Diaz @Bob Stone @relay@acme.test have a look', commentType: 'note' },
        ada.headers,
      );
      expect(note.statusCode).toBe(201);
      // Bob is a member of the ticket's team; Carol and the relay user are not.
      expect(recipients(await delivered(ticket.ticketIdentifier))).toEqual([bob.email]);
    });

    it('a note that fails queues nothing', async () => {
      const ticket = await createTicket();
      await delivered(ticket.ticketIdentifier);
      const before = await outboxCount();
      const failed = await comment(
        ticket.id,
        { content: '@Carol Diaz see above', commentType: 'note', parentCommentId: '01KAAAAAAAAAAAAAAAAAAAAAAA' },
        ada.headers,
      );
      expect(failed.statusCode).toBe(400);
      expect(await outboxCount()).toBe(before);
    });
  });

  describe('preferences', () => {
    it('are all on until changed; PATCH changes only the kinds sent', async () => {
      const erin = await makeUser(harness, acme.organizationId, { name: 'Erin Poe', email: 'erin@acme.test' });
      const initial = await harness.app.inject({ url: '/v1/users/me/notifications', headers: erin.headers });
      expect(initial.statusCode).toBe(200);
      expect(initial.json().data).toEqual({
        userId: erin.userId,
        assigned: true,
        customerReply: true,
        mentioned: true,
        teamUnassigned: true,
        slaAlerts: true,
        updatedAt: null,
      });
      const changed = await preferences({ mentioned: false }, erin.headers);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().data).toMatchObject({ assigned: true, mentioned: false, teamUnassigned: true, updatedAt: TEST_NOW });
      expect((await preferences({ assigned: false }, erin.headers)).json().data).toMatchObject({
        assigned: false,
        customerReply: true,
        mentioned: false,
      });
      expect((await preferences({}, erin.headers)).json().data).toMatchObject({ assigned: false, mentioned: false });
      // Another user's switches are their own.
      expect((await harness.app.inject({ url: '/v1/users/me/notifications', headers: ada.headers })).json().data).toMatchObject({
        userId: ada.userId,
        assigned: true,
        mentioned: true,
      });
    });

    it('switch each kind off', async () => {
      const fay = await makeUser(harness, acme.organizationId, { name: 'Fay Ng', email: 'fay@acme.test' });
      const gus = await makeUser(harness, acme.organizationId, { name: 'Gus Oak', email: 'gus@acme.test' });
      const desk = await team('PREF', 'Prefs', [fay, gus]);
      const seen = async (identifier: string) =>
        (await delivered(identifier)).map((mail) => `${mail.to} ${mail.subject.split(': ')[0]}`).sort();

      // teamUnassigned off: Fay hears nothing as a mere member of the team, but still of her own assignments.
      expect((await preferences({ teamUnassigned: false }, fay.headers)).statusCode).toBe(200);
      const first = await createTicket({ teamId: desk.teamId });
      expect(await seen(first.ticketIdentifier)).toEqual([`gus@acme.test [${first.ticketIdentifier}] New ticket for Prefs`]);
      await customerReply(first.id, 'unassigned reply');
      expect(await seen(first.ticketIdentifier)).toEqual([`gus@acme.test [${first.ticketIdentifier}] Customer replied`]);
      await ok('PATCH', `/v1/tickets/${first.id}`, { assignedAgentId: fay.userId });
      expect(await seen(first.ticketIdentifier)).toEqual([`fay@acme.test [${first.ticketIdentifier}] Assigned to you`]);

      // assigned off.
      expect((await preferences({ assigned: false }, gus.headers)).statusCode).toBe(200);
      await ok('PATCH', `/v1/tickets/${first.id}`, { assignedAgentId: gus.userId });
      expect(await seen(first.ticketIdentifier)).toEqual([]);

      // customerReply off.
      await customerReply(first.id, 'reply to Gus');
      expect(await seen(first.ticketIdentifier)).toEqual([`gus@acme.test [${first.ticketIdentifier}] Customer replied`]);
      expect((await preferences({ customerReply: false }, gus.headers)).statusCode).toBe(200);
      await customerReply(first.id, 'reply to Gus again');
      expect(await seen(first.ticketIdentifier)).toEqual([]);

      // mentioned off.
      const mention = { content: '@Fay Ng and @Gus Oak, see this', commentType: 'note' };
      expect((await comment(first.id, mention, ada.headers)).statusCode).toBe(201);
      expect(await seen(first.ticketIdentifier)).toEqual([
        `fay@acme.test [${first.ticketIdentifier}] Ada Lovelace mentioned you`,
        `gus@acme.test [${first.ticketIdentifier}] Ada Lovelace mentioned you`,
      ]);
      expect((await preferences({ mentioned: false }, fay.headers)).statusCode).toBe(200);
      expect((await comment(first.id, mention, ada.headers)).statusCode).toBe(201);
      expect(await seen(first.ticketIdentifier)).toEqual([
        `gus@acme.test [${first.ticketIdentifier}] Ada Lovelace mentioned you`,
      ]);
    });

    it('a bad PATCH body is a 400 naming the field, and changes nothing', async () => {
      const hal = await makeUser(harness, acme.organizationId, { name: 'Hal Ito', email: 'hal@acme.test' });
      for (const [body, message] of [
        [{ assigned: 'no' }, 'assigned must be a boolean'],
        [{ mentioned: null }, 'mentioned must be a boolean'],
        [{ customerReply: 0 }, 'customerReply must be a boolean'],
        [{ assigned: false, emailMe: true }, 'emailMe is not an accepted field'],
      ] as const) {
        const response = await preferences(body, hal.headers);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
      }
      const notJson = await harness.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/notifications',
        headers: { ...hal.headers, 'content-type': 'application/json' },
        payload: '[true]',
      });
      expect(notJson.statusCode).toBe(400);
      expect((await harness.app.inject({ url: '/v1/users/me/notifications', headers: hal.headers })).json().data).toMatchObject({
        assigned: true,
        updatedAt: null,
      });
      expect(
        await harness.db
          .selectFrom('user_notification_preferences')
          .select('user_id')
          .where('user_id', '=', hal.userId)
          .execute(),
      ).toEqual([]);
    });

    it('need a valid key; each organization sees only its own users', async () => {
      expect((await harness.app.inject({ url: '/v1/users/me/notifications' })).statusCode).toBe(401);
      const theirs = await harness.app.inject({ url: '/v1/users/me/notifications', headers: globex.headers });
      expect(theirs.json().data.userId).toBe(globex.userId);
    });
  });

  describe('nobody is told of their own change', () => {
    /** Who got mail about the ticket, and what its subject began with. */
    const told = async (identifier: string) =>
      (await delivered(identifier)).map((mail) => `${mail.to} ${mail.subject.replace(/^\[[^\]]+\] /, '').split(':')[0]}`).sort();

    it('a member who creates a ticket assigned to themselves, by id, by email or from the console, is not told', async () => {
      const byId = await createTicket({ assignedAgentId: ada.userId }, ada.headers);
      expect(await told(byId.ticketIdentifier)).toEqual([]);
      const byEmail = await createTicket({ assignedAgentEmail: 'ADA@acme.test' }, ada.headers);
      expect(await told(byEmail.ticketIdentifier)).toEqual([]);

      await setUserPassword(harness.db, ada.userId, await hashPassword('ada console password'), TEST_NOW);
      const browser = await signInBrowser(harness.app, ada.email, 'ada console password');
      const fromConsole = await asBrowser(harness.app, browser, {
        method: 'POST',
        url: '/v1/tickets',
        payload: {
          title: 'From the console',
          requestorEmail: 'pat@customer.test',
          teamId: billing.teamId,
          assignedAgentId: ada.userId,
        },
      });
      expect(fromConsole.statusCode, fromConsole.body).toBe(201);
      expect(await told(fromConsole.json().data.ticketIdentifier)).toEqual([]);
    });

    it("a new ticket's team is told, but not the member who created it", async () => {
      const ticket = await createTicket({}, ada.headers);
      expect(await told(ticket.ticketIdentifier)).toEqual([`${bob.email} New ticket for Billing`]);
      // Ada takes it: she is not told; nor is anyone of a bulk assignment to themselves.
      await ok('PATCH', `/v1/tickets/${ticket.id}`, { assignedAgentId: ada.userId }, ada.headers);
      const other = await createTicket({ assignedAgentId: bob.userId });
      await delivered(other.ticketIdentifier);
      await ok('POST', '/v1/tickets/bulk', { ticketIds: [other.id], change: { assignedAgentId: ada.userId } }, ada.headers);
      expect([...(await told(ticket.ticketIdentifier)), ...(await told(other.ticketIdentifier))]).toEqual([]);
    });

    it('a note mentioning its author tells only the others; a reply relayed by the assignee or a team member tells only the others', async () => {
      const ticket = await createTicket({ assignedAgentId: ada.userId });
      await delivered(ticket.ticketIdentifier);
      const note = await comment(
        ticket.id,
        { content: '@ada@acme.test and @bob@acme.test, look', commentVisibility: 'private' },
        ada.headers,
      );
      expect(note.statusCode, note.body).toBe(201);
      expect(await told(ticket.ticketIdentifier)).toEqual([`${bob.email} Ada Lovelace mentioned you`]);
      await customerReply(ticket.id, 'Relayed by the assignee', ada.headers);
      expect(await told(ticket.ticketIdentifier)).toEqual([]);

      const waiting = await createTicket();
      await delivered(waiting.ticketIdentifier);
      await customerReply(waiting.id, 'Relayed by a member of the team', bob.headers);
      expect(await told(waiting.ticketIdentifier)).toEqual([`${ada.email} Customer replied`]);
    });
  });

  it('an admin is not told of their own changes either', async () => {
    const ticket = await createTicket({ assignedAgentId: acme.userId });
    await customerReply(ticket.id, 'to the admin', acme.headers);
    expect(await delivered(ticket.ticketIdentifier)).toEqual([]);
  });
});
