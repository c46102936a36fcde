import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { decodeQuotedPrintable, startSmtp } from '../../../test/smtp.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';
import { createMetrics, type Metrics } from '../../lib/metrics.js';
import { createTicketSlaWorker, type TicketSlaWorker } from './ticket-sla.worker.js';

/** Calendar time, so the times below are plain arithmetic: first reply 60 minutes (warned at 45), resolution 8 hours. */
const POLICY = {
  name: 'Standard',
  businessHours: false,
  targets: { high: { firstReply: 60, resolution: 480 }, medium: { firstReply: 120 } },
};
const at = (time: string) => `2026-01-15T${time}:00.000Z`;

interface Person {
  userId: string;
  email: string;
  headers: { 'x-api-key': string };
}

describe.each(DIALECTS)('SLA warnings and breaches on %s', (dialect) => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let acme: TestOrganization;
  let desk: TestTeam;
  let ada: Person;
  let bob: Person;
  let carol: Person;
  let metrics: Metrics;
  let worker: TicketSlaWorker;

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Acme Support <help@acme.test>' },
    });
    acme = await makeOrganization(harness, { name: 'Acme' });
    const person = async (name: string, email: string): Promise<Person> => {
      const user = await makeUser(harness, acme.organizationId, { name, email });
      return { userId: user.userId, email, headers: user.headers };
    };
    ada = await person('Ada Lovelace', 'ada@acme.test');
    bob = await person('Bob Stone', 'bob@acme.test');
    carol = await person('Carol Diaz', 'carol@acme.test');
    desk = await makeTeam(harness, acme, { identifier: 'DESK', name: 'Desk' });
    // Exactly Bob and Carol: the factory's owner, the admin, is taken out.
    await harness.db.deleteFrom('team_members').where('team_id', '=', desk.teamId).execute();
    for (const member of [bob, carol]) {
      await ok('POST', `/v1/teams/${desk.teamId}/members`, { userId: member.userId });
    }
    await ok('POST', '/v1/sla-policies', POLICY);
    metrics = createMetrics();
    worker = workerOn(harness.db, metrics);
  });
  afterEach(async () => {
    harness.clock.set(TEST_NOW);
    // Each test's targets are settled, so none is announced when a later test moves the clock.
    await harness.db.updateTable('ticket_sla_targets').set({ warned_at: TEST_NOW, breach_notified_at: TEST_NOW }).execute();
    await deliverAll();
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
  });

  function workerOn(db: TestApp['db'], into: Metrics) {
    const log = pino({ level: 'silent' });
    return createTicketSlaWorker({
      db,
      clock: harness.clock,
      ids: harness.ids,
      config: harness.config,
      secretKey: harness.secretKey,
      log,
      metrics: into,
    });
  }

  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: object = acme.headers) {
    const response = await harness.app.inject({ method, url, headers: headers as Record<string, string>, payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json().data;
  }
  const createTicket = async (extra: object = {}) =>
    (await ok('POST', '/v1/tickets', {
      title: 'Refund not received',
      requestorEmail: 'pat@customer.test',
      teamId: desk.teamId,
      priorityName: 'High',
      performRouting: false,
      ...extra,
    })) as { id: string; ticketIdentifier: string };
  /** The SLA events of the log about a ticket, oldest first. */
  const slaEventsOf = async (ticketId: string) =>
    (
      (await ok('GET', '/v1/events?type=sla.warning&type=sla.breached&limit=100')) as {
        type: string;
        actor: object;
        data: { ticketId: string; dueAt?: string };
      }[]
    )
      .filter((event) => event.data.ticketId === ticketId)
      .sort((a, b) => ((a as unknown as { id: string }).id < (b as unknown as { id: string }).id ? -1 : 1));
  const timelineOf = async (ticketId: string) =>
    (
      (await ok('GET', `/v1/tickets/${ticketId}/sla-events`)) as {
        kind: string;
        metric: string;
        actorType: string;
        actorId: string | null;
      }[]
    ).map((event) => `${event.kind} ${event.metric} ${event.actorType}`);
  /** Delivers what the outbox holds to the loopback server; answers each mail as "to subject". */
  async function deliverAll(): Promise<string[]> {
    const outbox = createOutboxWorker({
      db: harness.db,
      clock: harness.clock,
      config: harness.config,
      log: pino({ level: 'silent' }),
    });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 20 && (await outbox.runOnce()) > 0; pass++) {
      // Until nothing is left.
    }
    await outbox.stop();
    return smtp.messages
      .flatMap((message) => {
        const subject = (message.raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ');
        return message.to.map((to) => `${to} ${subject}`);
      })
      .sort();
  }

  it('warns at the warning share, then breaches at the due time, each once, with the event, timeline, email and metric', async () => {
    const ticket = await createTicket({ assignedAgentId: ada.userId });
    await deliverAll(); // The assignment's own email.
    harness.clock.set(at('09:44'));
    expect(await worker.runOnce()).toBe(0);
    harness.clock.set(at('09:45'));
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    harness.clock.set(at('10:00'));
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);

    const events = await slaEventsOf(ticket.id);
    const payload = { ticketId: ticket.id, policyName: 'Standard', metric: 'firstReply', dueAt: at('10:00') };
    expect(events).toMatchObject([
      { type: 'sla.warning', actor: { type: 'system', id: null }, data: { ...payload, breachedAt: null } },
      { type: 'sla.breached', actor: { type: 'system', id: null }, data: { ...payload, breachedAt: at('10:00') } },
    ]);
    expect(await timelineOf(ticket.id)).toEqual([
      'start firstReply user',
      'start resolution user',
      'warning firstReply system',
      'breach firstReply system',
    ]);
    const answer = await ok('GET', `/v1/tickets/${ticket.id}`);
    expect(answer.sla.targets[0]).toMatchObject({ metric: 'firstReply', status: 'breached', breachedAt: at('10:00') });
    const mails = await deliverAll();
    expect(decodeQuotedPrintable(smtp.messages[0]?.raw ?? '')).toContain(`under the SLA policy "Standard"`);
    expect(mails).toEqual([
      `ada@acme.test [${ticket.ticketIdentifier}] SLA breached, first reply overdue: Refund not received`,
      `ada@acme.test [${ticket.ticketIdentifier}] SLA warning, first reply due soon: Refund not received`,
    ]);
    const scraped = await metrics.scrape();
    expect(scraped).toContain('sla_breaches_total{policy="Standard",metric="firstReply"} 1');
    expect(scraped).toContain('sla_worker_lag_seconds 0');
  });

  it('tells the team members when nobody is assigned; a target found past due is breached, not warned', async () => {
    const ticket = await createTicket();
    await deliverAll();
    harness.clock.set(at('10:30'));
    expect(await worker.runOnce()).toBe(1);
    expect((await slaEventsOf(ticket.id)).map((event) => event.type)).toEqual(['sla.breached']);
    expect(await deliverAll()).toEqual([
      `bob@acme.test [${ticket.ticketIdentifier}] SLA breached, first reply overdue: Refund not received`,
      `carol@acme.test [${ticket.ticketIdentifier}] SLA breached, first reply overdue: Refund not received`,
    ]);
  });

  it('respects the slaAlerts switch', async () => {
    await ok('PATCH', '/v1/users/me/notifications', { slaAlerts: false }, carol.headers);
    const ticket = await createTicket();
    await deliverAll();
    harness.clock.set(at('10:30'));
    expect(await worker.runOnce()).toBe(1);
    expect(await deliverAll()).toEqual([
      `bob@acme.test [${ticket.ticketIdentifier}] SLA breached, first reply overdue: Refund not received`,
    ]);
    await ok('PATCH', '/v1/users/me/notifications', { slaAlerts: true }, carol.headers);
  });

  it('a paused target never warns nor breaches; resumed, it warns at its share of the time left', async () => {
    const ticket = await createTicket();
    harness.clock.set(at('09:10'));
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'On hold' });
    harness.clock.set(at('12:00'));
    expect(await worker.runOnce()).toBe(0);
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { statusName: 'Open' });
    // 10 minutes ran before the pause: the warning comes 35 minutes after the resume, the due time 50.
    harness.clock.set(at('12:34'));
    expect(await worker.runOnce()).toBe(0);
    harness.clock.set(at('12:35'));
    expect(await worker.runOnce()).toBe(1);
    expect((await slaEventsOf(ticket.id)).map((event) => [event.type, event.data.dueAt])).toEqual([['sla.warning', at('12:50')]]);
  });

  it('a new priority moves the warning with the due time; once warned, a later due time warns nobody again', async () => {
    const moved = await createTicket();
    const warned = await createTicket();
    harness.clock.set(at('09:30'));
    // 30 of Medium's 120 minutes ran: warned at 90 (10:30), due at 11:00.
    await ok('PATCH', `/v1/tickets/${moved.id}`, { priorityName: 'Medium' });
    harness.clock.set(at('09:45'));
    expect(await worker.runOnce()).toBe(1);
    harness.clock.set(at('09:50'));
    await ok('PATCH', `/v1/tickets/${warned.id}`, { priorityName: 'Medium' });
    harness.clock.set(at('10:29'));
    expect(await worker.runOnce()).toBe(0);
    harness.clock.set(at('10:30'));
    expect(await worker.runOnce()).toBe(1);
    harness.clock.set(at('11:00'));
    expect(await worker.runOnce()).toBe(2);
    const kinds = async (id: string) => (await slaEventsOf(id)).map((event) => `${event.type} ${event.data.dueAt}`);
    expect(await kinds(moved.id)).toEqual([`sla.warning ${at('11:00')}`, `sla.breached ${at('11:00')}`]);
    expect(await kinds(warned.id)).toEqual([`sla.warning ${at('10:00')}`, `sla.breached ${at('11:00')}`]);
  });

  it('a target met in time never breaches', async () => {
    const ticket = await createTicket({ assignedAgentId: ada.userId });
    harness.clock.set(at('09:30'));
    await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'On it', commentVisibility: 'public' });
    harness.clock.set(at('10:30'));
    expect(await worker.runOnce()).toBe(0);
    expect(await slaEventsOf(ticket.id)).toEqual([]);
  });

  it('a breach a ticket change marked first is announced once, with one breach on the timeline', async () => {
    const ticket = await createTicket({ assignedAgentId: ada.userId });
    harness.clock.set(at('10:05'));
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { title: 'Refund still not received' });
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect((await slaEventsOf(ticket.id)).map((event) => event.type)).toEqual(['sla.breached']);
    expect((await timelineOf(ticket.id)).filter((entry) => entry.startsWith('breach'))).toEqual(['breach firstReply system']);
  });

  const breachesIn = (text: string) =>
    Number(text.match(/sla_breaches_total\{policy="Standard",metric="firstReply"\} (\d+)/)?.[1] ?? 0);

  it('two workers, each on its own connections, racing over the same due targets announce each once', async () => {
    const second: DatabaseHandle | null = harness.url ? connectPostgres(harness.url, 5) : null;
    const secondMetrics = createMetrics();
    const other = workerOn(second?.db ?? harness.db, secondMetrics);
    try {
      const tickets = [];
      for (let index = 0; index < 8; index++) {
        tickets.push(await createTicket({ assignedAgentId: ada.userId }));
      }
      await deliverAll();
      const ids = new Set(tickets.map((ticket) => ticket.id));
      const count = async (type: string) =>
        ((await ok('GET', `/v1/events?type=${type}&limit=100`)) as { data: { ticketId: string; dueAt?: string } }[]).filter(
          (event) => ids.has(event.data.ticketId),
        ).length;
      const before = breachesIn(await metrics.scrape());

      harness.clock.set(at('09:50'));
      const warned = await Promise.all([worker.runOnce(), other.runOnce()]);
      expect(warned[0] + warned[1]).toBeGreaterThanOrEqual(8);
      expect(await count('sla.warning')).toBe(8);
      harness.clock.set(at('10:10'));
      await Promise.all([worker.runOnce(), other.runOnce(), worker.runOnce()]);
      expect(await count('sla.breached')).toBe(8);
      expect(await count('sla.warning')).toBe(8);
      const identifiers = tickets.map((ticket) => `[${ticket.ticketIdentifier}]`);
      const mails = (await deliverAll()).filter((mail) => identifiers.some((identifier) => mail.includes(identifier)));
      expect(mails.filter((mail) => mail.includes('SLA warning'))).toHaveLength(8);
      expect(mails.filter((mail) => mail.includes('SLA breached'))).toHaveLength(8);
      expect(breachesIn(await metrics.scrape()) - before + breachesIn(await secondMetrics.scrape())).toBe(8);
    } finally {
      await other.stop();
      await second?.close();
    }
  });
});
