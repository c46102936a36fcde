import { type ParsedMail, simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeTeamPeople, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startSmtp } from '../../../test/smtp.js';
import { connectPostgres } from '../../db/connect.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';
import { createSatisfactionWorker } from './satisfaction.worker.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const DAY_MS = 24 * 60 * 60_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Satisfaction surveys end to end: a team's settings; a close queues a survey, the worker emails
 * it through real SMTP on loopback, the Good link opens a page that records nothing until its
 * form is sent; the answer and comment change until the ticket reopens; refused links write
 * nothing; sampling, cooldown and skip conditions.
 */
describe.each(DIALECTS)('satisfaction surveys on %s', (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let other: TestTeam;
  let sequence = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, {
      env: { SMTP_URL: smtp.url, SMTP_FROM: 'Acme Support <support@acme.test>' },
    });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    other = await makeTeam(harness, acme, { name: 'Other', identifier: 'OTH' });
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
  });
  afterEach(() => harness.clock.set(TEST_NOW));

  const call = (method: Method, url: string, payload?: object, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  async function ok(method: Method, url: string, payload?: object, headers: Record<string, string> = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  const settings = (teamId: string, body: object) => ok('PUT', `/v1/teams/${teamId}/satisfaction-settings`, body);
  const enabled = {
    enabled: true,
    delayMinutes: 0,
    samplingShare: 1,
    cooldownDays: 0,
    skipWhen: { tagIds: [], priorityIds: [] },
  };
  /** A new ticket of the desk, from a requestor of its own unless named. */
  const ticket = (extra: object = {}, teamId = desk.teamId) =>
    ok('POST', '/v1/tickets', {
      title: 'Printer on fire',
      requestorEmail: `pat${++sequence}@customer.test`,
      teamId,
      ...extra,
    });
  const close = (id: string) => ok('PATCH', `/v1/tickets/${id}`, { statusName: 'Closed' });
  const reopen = (id: string) => ok('PATCH', `/v1/tickets/${id}`, { statusName: 'Open' });
  const survey = (id: string) => ok('GET', `/v1/tickets/${id}/satisfaction`);
  /** A new team tag's id (the answer lists every tag of the team). */
  async function makeTag(teamId: string, name: string): Promise<string> {
    const tags = (await ok('POST', `/v1/teams/${teamId}/tags`, { name })) as { items: { id: string; name: string }[] };
    return tags.items.find((tag) => tag.name === name)?.id ?? '';
  }
  const recipientOf = (mail: ParsedMail) => (mail.to && 'value' in mail.to ? mail.to.value[0]?.address : undefined);

  /** One pass of the survey worker, then the outbox: the mails that reached requestors. */
  async function deliver(): Promise<ParsedMail[]> {
    const log = pino({ level: 'silent' });
    await createSatisfactionWorker({ ...harness, log }).runOnce();
    const outbox = createOutboxWorker({ db: harness.db, clock: harness.clock, config: harness.config, log });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 20 && (await outbox.runOnce()) > 0; pass++) {
      // Until nothing is due.
    }
    await outbox.stop();
    // The requestors' mail only, not the team's notifications.
    const toRequestors = smtp.messages.filter((message) => message.to.some((to) => to.endsWith('@customer.test')));
    return Promise.all(toRequestors.map((message) => simpleParser(message.raw)));
  }
  /** The Good and Bad links of a survey mail, as paths with their query. */
  function linksOf(mail: ParsedMail | undefined): { good: string; bad: string } {
    const found = [...(mail?.text ?? '').matchAll(/(Good|Bad): (http\S+)/g)];
    const path = (label: string) => {
      const link = found.find((match) => match[1] === label)?.[2];
      expect(link, mail?.text).toBeDefined();
      const url = new URL(link ?? '');
      return `${url.pathname}${url.search}`;
    };
    return { good: path('Good'), bad: path('Bad') };
  }
  const open = (link: string) => harness.app.inject({ method: 'GET', url: link });
  function post(link: string, fields: Record<string, string>) {
    const query = new URL(link, 'http://localhost').searchParams;
    const body = new URLSearchParams({ ticket: query.get('ticket') ?? '', token: query.get('token') ?? '', ...fields });
    return harness.app.inject({ method: 'POST', url: '/v1/satisfaction', headers: FORM, payload: body.toString() });
  }
  const ratedEvents = async () =>
    (await ok('GET', '/v1/events?type=satisfaction.rated&limit=100')) as { data: { ticketId: string; rating: string } }[];
  /** A closed ticket whose survey was emailed; its mail and links. */
  async function surveyed(extra: object = {}) {
    const created = await ticket(extra);
    await close(created.id);
    const mails = await deliver();
    const mail = mails.find((entry) => recipientOf(entry) === created.requestorEmail);
    return { ticket: created, mail, links: linksOf(mail) };
  }

  describe('settings', () => {
    it('answers the defaults until set, and what was put', async () => {
      expect(await ok('GET', `/v1/teams/${other.teamId}/satisfaction-settings`)).toEqual({
        teamId: other.teamId,
        enabled: false,
        delayMinutes: 0,
        samplingShare: 1,
        cooldownDays: 0,
        skipWhen: { tagIds: [], priorityIds: [] },
        updatedAt: null,
      });
      const put = await settings(other.teamId, { ...enabled, delayMinutes: 60, samplingShare: 0.5, cooldownDays: 30 });
      expect(put).toMatchObject({ enabled: true, delayMinutes: 60, samplingShare: 0.5, cooldownDays: 30, updatedAt: TEST_NOW });
      expect(await ok('GET', `/v1/teams/${other.teamId}/satisfaction-settings`)).toEqual(put);
      await settings(other.teamId, { ...enabled, enabled: false });
    });

    it('refuses each bad value with a 400 and writes nothing', async () => {
      const before = await ok('GET', `/v1/teams/${other.teamId}/satisfaction-settings`);
      const otherTag = await makeTag(desk.teamId, `desk-only-${dialect}`);
      const status = (await ticket({}, other.teamId)).statusId;
      const bad: object[] = [
        { ...enabled, delayMinutes: -1 },
        { ...enabled, delayMinutes: 43_201 },
        { ...enabled, delayMinutes: 1.5 },
        { ...enabled, samplingShare: -0.1 },
        { ...enabled, samplingShare: 1.1 },
        { ...enabled, cooldownDays: -1 },
        { ...enabled, cooldownDays: 366 },
        { ...enabled, enabled: 'yes' },
        { ...enabled, skipWhen: { tagIds: ['nope'], priorityIds: [] } },
        { ...enabled, skipWhen: { tagIds: [otherTag], priorityIds: [] } },
        { ...enabled, skipWhen: { tagIds: [], priorityIds: [status] } },
        { ...enabled, skipWhen: { tagIds: [] } },
        { ...enabled, colour: 'red' },
        { enabled: true },
      ];
      for (const body of bad) {
        const response = await call('PUT', `/v1/teams/${other.teamId}/satisfaction-settings`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      }
      expect(await ok('GET', `/v1/teams/${other.teamId}/satisfaction-settings`)).toEqual(before);
    });

    it("is 404 for another organization's team, and 403 for a member who does not manage it", async () => {
      for (const method of ['GET', 'PUT'] as const) {
        const response = await call(method, `/v1/teams/${desk.teamId}/satisfaction-settings`, enabled, globex.headers);
        expect(response.statusCode).toBe(404);
      }
      const { member, manager } = await makeTeamPeople(harness, acme.organizationId, other.teamId);
      expect((await call('PUT', `/v1/teams/${other.teamId}/satisfaction-settings`, enabled, member.headers)).statusCode).toBe(
        403,
      );
      expect((await call('GET', `/v1/teams/${other.teamId}/satisfaction-settings`, undefined, member.headers)).statusCode).toBe(
        200,
      );
      const put = await call(
        'PUT',
        `/v1/teams/${other.teamId}/satisfaction-settings`,
        { ...enabled, enabled: false },
        manager.headers,
      );
      expect(put.statusCode, put.body).toBe(200);
    });
  });

  describe('surveys', () => {
    beforeAll(async () => {
      await settings(desk.teamId, enabled);
    });

    it('asks nothing of a team with surveys off', async () => {
      const created = await ticket({}, other.teamId);
      await close(created.id);
      expect(await deliver()).toEqual([]);
      expect(await survey(created.id)).toBeNull();
    });

    it('emails the survey after the delay; the Good link opens a form that records once sent, then Bad, then a comment', async () => {
      await settings(desk.teamId, { ...enabled, delayMinutes: 30 });
      const created = await ticket();
      await close(created.id);
      expect(await survey(created.id)).toMatchObject({ status: 'pending', sendAt: '2026-01-15T09:30:00.000Z', rating: null });
      expect(await deliver()).toEqual([]);
      harness.clock.advance(30 * 60_000);
      const [mail, ...more] = await deliver();
      expect(more).toEqual([]);
      expect(mail?.to).toMatchObject({ value: [{ address: created.requestorEmail }] });
      expect(mail?.subject).toContain(created.ticketIdentifier);
      expect(await deliver()).toEqual([]);
      const links = linksOf(mail);
      expect(await survey(created.id)).toMatchObject({
        status: 'sent',
        sentAt: '2026-01-15T09:30:00.000Z',
        expiresAt: '2026-02-12T09:30:00.000Z',
      });

      // Opening the link (a mail scanner, or the customer) changes nothing.
      const page = await open(links.good);
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('value="good" required checked');
      expect(page.body).not.toContain('<script');
      expect((await survey(created.id)).status).toBe('sent');
      expect((await ratedEvents()).filter((event) => event.data.ticketId === created.id)).toEqual([]);

      const rated = await post(links.good, { rating: 'good' });
      expect(rated.statusCode, rated.body).toBe(200);
      expect(rated.body).toContain('We recorded your rating: Good');
      expect(await survey(created.id)).toMatchObject({
        status: 'rated',
        rating: 'good',
        comment: null,
        ratedAt: TEST_NOW.replace('09:00', '09:30'),
      });
      harness.clock.advance(60_000);
      expect((await post(links.bad, { rating: 'bad', comment: 'Still <b>smoking</b>' })).statusCode).toBe(200);
      expect(await survey(created.id)).toMatchObject({ rating: 'bad', comment: 'Still <b>smoking</b>' });
      const again = await open(links.good);
      expect(again.body).toContain('Still &lt;b&gt;smoking&lt;/b&gt;');
      const events = (await ratedEvents()).filter((event) => event.data.ticketId === created.id);
      // Newest first.
      expect(events.map((event) => event.data.rating)).toEqual(['bad', 'good']);
      expect(events[1]).toMatchObject({
        type: 'satisfaction.rated',
        actor: { type: 'customer_contact', name: created.requestorEmail },
      });
      await settings(desk.teamId, enabled);
    });

    it('refuses the links once the ticket reopens, and writes nothing', async () => {
      const { ticket: created, links } = await surveyed();
      await post(links.good, { rating: 'good' });
      await reopen(created.id);
      const before = await survey(created.id);
      expect(before).toMatchObject({ rating: 'good', reopenedAt: TEST_NOW });
      const page = await open(links.bad);
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('reopened');
      expect((await post(links.bad, { rating: 'bad' })).statusCode).toBe(410);
      expect(await survey(created.id)).toEqual(before);
      // A new close asks again, with new links.
      await close(created.id);
      const [mail] = await deliver();
      expect(linksOf(mail).good).not.toBe(links.good);
      expect(await survey(created.id)).toMatchObject({ status: 'sent', rating: null, reopenedAt: null });
    });

    it('withdraws a survey not yet sent when the ticket reopens', async () => {
      await settings(desk.teamId, { ...enabled, delayMinutes: 10 });
      const created = await ticket();
      await close(created.id);
      await reopen(created.id);
      harness.clock.advance(11 * 60_000);
      expect(await deliver()).toEqual([]);
      expect(await survey(created.id)).toMatchObject({ status: 'skipped', skipReason: 'reopened' });
      await settings(desk.teamId, enabled);
    });

    it("refuses an expired link, a forged one, another ticket's, and an incomplete one", async () => {
      const first = await surveyed();
      const second = await surveyed();
      const token = new URL(first.links.good, 'http://localhost').searchParams.get('token') ?? '';
      const forged = first.links.good.replace(token, `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
      expect((await open(forged)).statusCode).toBe(404);
      expect((await post(forged, { rating: 'good' })).statusCode).toBe(404);
      const crossed = first.links.good.replace(first.ticket.id, second.ticket.id);
      expect((await open(crossed)).statusCode).toBe(404);
      expect((await post(crossed, { rating: 'good' })).statusCode).toBe(404);
      expect((await open('/v1/satisfaction?rating=good')).statusCode).toBe(400);
      expect((await open(`/v1/satisfaction?ticket=${first.ticket.id}&token=short`)).statusCode).toBe(400);
      expect((await post(first.links.good, { rating: 'meh' })).statusCode).toBe(400);
      const json = await harness.app.inject({
        method: 'POST',
        url: '/v1/satisfaction',
        payload: { ticket: 'x', token: 'y', rating: 'good' },
      });
      expect(json.statusCode).toBe(415);
      harness.clock.advance(29 * DAY_MS);
      expect((await open(first.links.good)).statusCode).toBe(410);
      expect((await post(first.links.good, { rating: 'good' })).statusCode).toBe(410);
      for (const { ticket: created } of [first, second]) {
        expect(await survey(created.id)).toMatchObject({ status: 'sent', rating: null });
      }
    });

    it('refuses the links of a deleted ticket', async () => {
      const { ticket: created, links } = await surveyed();
      await ok('DELETE', `/v1/tickets/${created.id}`);
      expect((await open(links.good)).statusCode).toBe(410);
      expect((await post(links.good, { rating: 'good' })).statusCode).toBe(410);
      const row = await harness.db
        .selectFrom('satisfaction_surveys')
        .select(['status', 'rating'])
        .where('ticket_id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'sent', rating: null });
    });

    it('sends none with a sampling share of 0', async () => {
      await settings(desk.teamId, { ...enabled, samplingShare: 0 });
      const created = await ticket();
      await close(created.id);
      expect(await deliver()).toEqual([]);
      expect(await survey(created.id)).toMatchObject({ status: 'skipped', skipReason: 'sampled_out' });
      await settings(desk.teamId, enabled);
    });

    it('skips a ticket with a skip tag or priority', async () => {
      const tag = await makeTag(desk.teamId, `no-survey-${dialect}`);
      const urgent = await ticket({ priorityName: 'Urgent' });
      await settings(desk.teamId, { ...enabled, skipWhen: { tagIds: [tag], priorityIds: [urgent.priorityId] } });
      const tagged = await ticket({ tagIds: [tag] });
      const plain = await ticket();
      for (const created of [tagged, urgent, plain]) {
        await close(created.id);
      }
      const mails = await deliver();
      expect(mails.map(recipientOf)).toEqual([plain.requestorEmail]);
      expect(await survey(tagged.id)).toMatchObject({ status: 'skipped', skipReason: 'skip_condition' });
      expect(await survey(urgent.id)).toMatchObject({ status: 'skipped', skipReason: 'skip_condition' });
      await settings(desk.teamId, enabled);
    });

    it('sends no second survey to a requestor within the cooldown', async () => {
      await settings(desk.teamId, { ...enabled, cooldownDays: 7 });
      const requestorEmail = `repeat-${dialect}@customer.test`;
      const first = await ticket({ requestorEmail });
      await close(first.id);
      expect(await deliver()).toHaveLength(1);
      harness.clock.advance(6 * DAY_MS);
      const second = await ticket({ requestorEmail });
      await close(second.id);
      expect(await deliver()).toEqual([]);
      expect(await survey(second.id)).toMatchObject({ status: 'skipped', skipReason: 'cooldown' });
      harness.clock.advance(DAY_MS + 1);
      const third = await ticket({ requestorEmail });
      await close(third.id);
      expect(await deliver()).toHaveLength(1);
      await settings(desk.teamId, enabled);
    });
  });

  describe('with two processes', () => {
    it('sends each due survey once, and one survey per requestor within the cooldown', async () => {
      await settings(desk.teamId, { ...enabled, cooldownDays: 7 });
      // On PostgreSQL the second worker has its own pool, as another process would.
      const second = harness.dialect === 'postgres' && harness.url ? connectPostgres(harness.url, 5) : null;
      const log = pino({ level: 'silent' });
      const workers = [harness.db, second?.db ?? harness.db].map((db) =>
        createSatisfactionWorker({ ...harness, db, log }, { batchSize: 10 }),
      );
      try {
        const shared = `shared-${dialect}@customer.test`;
        const tickets = [
          ...(await Promise.all([1, 2, 3, 4].map(() => ticket()))),
          ...(await Promise.all([1, 2, 3].map(() => ticket({ requestorEmail: shared })))),
        ];
        for (const created of tickets) {
          await close(created.id);
        }
        await Promise.all(workers.map((worker) => worker.runOnce()));
        const states = await Promise.all(tickets.map(async (created) => (await survey(created.id)).status));
        expect(states.slice(0, 4)).toEqual(['sent', 'sent', 'sent', 'sent']);
        expect(states.slice(4).sort()).toEqual(['sent', 'skipped', 'skipped']);
        const emails = await harness.db
          .selectFrom('email_outbox')
          .select(['to_address'])
          .where('dedupe_key', 'like', 'satisfaction-survey:%')
          .where(
            'to_address',
            'in',
            tickets.map((created) => created.requestorEmail),
          )
          .execute();
        expect(emails).toHaveLength(5);
        expect(emails.filter((email) => email.to_address === shared)).toHaveLength(1);
      } finally {
        await second?.close();
        await deliver();
        await settings(desk.teamId, enabled);
      }
    });
  });

  describe('private tickets', () => {
    it('are 404 to a member outside the team, on both routes, and nothing is sent', async () => {
      const { outsider } = await makeTeamPeople(harness, acme.organizationId, desk.teamId);
      const hidden = await ticket({ isPrivate: true });
      for (const [method, path] of [
        ['GET', 'satisfaction'],
        ['POST', 'satisfaction/request'],
      ] as const) {
        const response = await call(method, `/v1/tickets/${hidden.id}/${path}`, undefined, outsider.headers);
        expect(response.statusCode, path).toBe(404);
      }
      expect(await survey(hidden.id)).toBeNull();
    });
  });

  describe('sending by hand', () => {
    it('sends at once, whatever the settings; 409 while one of this close stands; 404 elsewhere', async () => {
      const created = await ticket({}, other.teamId);
      const sent = await call('POST', `/v1/tickets/${created.id}/satisfaction/request`);
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json().data).toMatchObject({ status: 'sent', manual: true, ticketId: created.id });
      const [mail] = await deliver();
      expect(mail?.to).toMatchObject({ value: [{ address: created.requestorEmail }] });
      expect((await call('POST', `/v1/tickets/${created.id}/satisfaction/request`)).statusCode).toBe(409);
      expect((await call('POST', `/v1/tickets/${created.id}/satisfaction/request`, undefined, globex.headers)).statusCode).toBe(
        404,
      );
      expect((await call('GET', `/v1/tickets/${created.id}/satisfaction`, undefined, globex.headers)).statusCode).toBe(404);
      expect((await post(linksOf(mail).good, { rating: 'good' })).statusCode).toBe(200);
      expect((await call('POST', `/v1/tickets/${created.id}/satisfaction/request`)).statusCode).toBe(409);
      // Closing it afterwards asks nothing more: the survey sent by hand stands for the close.
      await settings(other.teamId, { ...enabled, samplingShare: 0 });
      await close(created.id);
      expect(await survey(created.id)).toMatchObject({ status: 'rated', manual: true, rating: 'good' });
      expect(
        await harness.db.selectFrom('satisfaction_surveys').select('id').where('ticket_id', '=', created.id).execute(),
      ).toHaveLength(1);
      await settings(other.teamId, { ...enabled, enabled: false });
      const noAddress = await ticket({ requestorEmail: 'visitor@messenger.invalid' }, other.teamId);
      const refused = await call('POST', `/v1/tickets/${noAddress.id}/satisfaction/request`);
      expect(refused.statusCode).toBe(409);
      expect(await survey(noAddress.id)).toBeNull();
    });
  });
});
