import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { connectPostgres } from '../../db/connect.js';
import { createMetrics } from '../../lib/metrics.js';
import { createTicketSlaWorker } from '../ticket-sla/ticket-sla.worker.js';

/**
 * The `sla` and `satisfaction` reports and the agents' new columns on a seeded data set. The team
 * has no configuration (UTC days), the policy counts calendar time: first reply 60 minutes,
 * resolution 480, for High tickets.
 *
 * Monday 12th: T1 (Ann) created 09:00, replied 09:30 (first reply met), closed 12:00 (resolution
 *   met). T2 (Bob) created 10:00; the worker at 11:30 marks its first reply breached (due 11:00);
 *   Bob's reply at 11:40 meets nothing; closed 19:00, its resolution (due 18:00) breached by the close.
 * Tuesday 13th: T3 (Ann) created 09:00, replied 09:10 (met), closed 10:00 (resolution met), reopened
 *   11:00 (that met taken back; 420 minutes left, due 18:00), closed 20:00 (breached).
 *   T5 (Ann, Low, policy "Low touch") created 12:00, replied 12:20 (first reply met).
 * Monday 19th: T4 (Bob) created 09:00; at 10:30 the worker and a change of the ticket race to
 *   mark its first reply breached (on PostgreSQL, from two pools): counted once.
 * Surveys (sent by hand): T1 12th 12:30, rated Good 13:00, changed to Bad on the 13th 08:00 (the
 *   count moves in the 12th); T2 12th 19:30, rated Good on the 13th 08:30 (Bob); T3 13th 20:30, unrated.
 *
 * SLA by day: 12th firstReply 1 met / 1 breached, resolution 1/1; 13th firstReply 2/0 (one of each
 * policy), resolution 0/1; 19th firstReply 0/1. Satisfaction: 12th sent 2, responses 1, bad 1; 13th
 * sent 1, responses 1, good 1. Agents: Ann met 4 (T1 ×2, T3 and T5 first replies), breached 1 → 0.8, rated Bad → 0;
 * Bob met 0, breached 3 → 0, rated Good → 1.
 */
const POLICY = { name: 'Standard', businessHours: false, targets: { high: { firstReply: 60, resolution: 480 } } };
/** Before it, for Low tickets only. */
const LOW_POLICY = {
  name: 'Low touch',
  businessHours: false,
  andRules: [JSON.stringify({ field: 'priority', operator: 'equals', value: 'low' })],
  targets: { low: { firstReply: 30 } },
};
const day = (date: string, time: string) => `2026-01-${date}T${time}:00.000Z`;

const sla = (met: number, breached: number) => ({
  met,
  breached,
  attainment: met + breached > 0 ? met / (met + breached) : null,
});
const NONE = sla(0, 0);
function slaValues(firstReply: [number, number], resolution: [number, number]) {
  const met = firstReply[0] + resolution[0];
  const breaches = firstReply[1] + resolution[1];
  return {
    firstReply: sla(...firstReply),
    nextReply: NONE,
    periodicUpdate: NONE,
    resolution: sla(...resolution),
    attainment: met + breaches > 0 ? met / (met + breaches) : null,
    breaches,
  };
}

describe.each(DIALECTS)('SLA and satisfaction reports on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let ann: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  let policyId: string;
  let lowPolicyId: string;

  async function send(method: 'POST' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = acme.headers) {
    const response = await harness.app.inject({ method, url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  }
  async function at<T>(instant: string, step: () => Promise<T>): Promise<T> {
    harness.clock.set(instant);
    return step();
  }
  const create = (assignedAgentId: string, priorityName = 'High') =>
    send('POST', '/v1/tickets', {
      title: 'Printer on fire',
      requestorEmail: 'pat@customer.test',
      teamId: desk.teamId,
      priorityName,
      performRouting: false,
      assignedAgentId,
    });
  const status = (ticketId: string, statusName: string) => send('PATCH', `/v1/tickets/${ticketId}`, { statusName });
  const reply = (ticketId: string, headers: Record<string, string>) =>
    send('POST', `/v1/tickets/${ticketId}/comment`, { content: 'On it' }, headers);

  function workerOn(db: TestApp['db']) {
    const deps = { ...harness, db, log: pino({ level: 'silent' }), metrics: createMetrics() };
    return createTicketSlaWorker(deps);
  }

  /** Sends the ticket's survey now; answers its form's ticket and token, read from the queued email. */
  async function surveyOf(ticketId: string): Promise<{ ticket: string; token: string }> {
    const survey = await send('POST', `/v1/tickets/${ticketId}/satisfaction/request`);
    const email = await harness.db
      .selectFrom('email_outbox')
      .select('text_body')
      .where('dedupe_key', '=', `satisfaction-survey:${survey.id}`)
      .executeTakeFirstOrThrow();
    const link = /Good: (http\S+)/.exec(email.text_body)?.[1] ?? '';
    const query = new URL(link).searchParams;
    return { ticket: query.get('ticket') ?? '', token: query.get('token') ?? '' };
  }
  async function rate(survey: { ticket: string; token: string }, rating: 'good' | 'bad') {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/satisfaction',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...survey, rating }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
  }
  async function report(name: string, query: string, headers: Record<string, string> = acme.headers) {
    const response = await harness.app.inject({ method: 'GET', url: `/v1/reports/${name}?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  async function seed() {
    const worker = workerOn(harness.db);
    const t1 = await at(day('12', '09:00'), () => create(ann.userId));
    await at(day('12', '09:30'), () => reply(t1.id, ann.headers));
    const t2 = await at(day('12', '10:00'), () => create(bob.userId));
    await at(day('12', '11:30'), () => worker.runOnce());
    await at(day('12', '11:40'), () => reply(t2.id, bob.headers));
    await at(day('12', '12:00'), () => status(t1.id, 'Closed'));
    const s1 = await at(day('12', '12:30'), () => surveyOf(t1.id));
    await at(day('12', '13:00'), () => rate(s1, 'good'));
    await at(day('12', '19:00'), () => status(t2.id, 'Closed'));
    const s2 = await at(day('12', '19:30'), () => surveyOf(t2.id));
    await at(day('13', '08:00'), () => rate(s1, 'bad'));
    await at(day('13', '08:30'), () => rate(s2, 'good'));
    const t3 = await at(day('13', '09:00'), () => create(ann.userId));
    await at(day('13', '09:10'), () => reply(t3.id, ann.headers));
    await at(day('13', '10:00'), () => status(t3.id, 'Closed'));
    await at(day('13', '11:00'), () => status(t3.id, 'Open'));
    const t5 = await at(day('13', '12:00'), () => create(ann.userId, 'Low'));
    await at(day('13', '12:20'), () => reply(t5.id, ann.headers));
    await at(day('13', '20:00'), () => status(t3.id, 'Closed'));
    await at(day('13', '20:30'), () => surveyOf(t3.id));
    const t4 = await at(day('19', '09:00'), () => create(bob.userId));
    // On PostgreSQL the worker has a pool of its own, as another process would.
    const second = harness.dialect === 'postgres' && harness.url ? connectPostgres(harness.url, 5) : null;
    try {
      const racing = workerOn(second?.db ?? harness.db);
      await at(day('19', '10:30'), () =>
        Promise.all([racing.runOnce(), send('PATCH', `/v1/tickets/${t4.id}`, { title: 'Printer still on fire' })]),
      );
    } finally {
      await second?.close();
    }
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    ann = await makeUser(harness, acme.organizationId, { name: 'Ann', email: 'ann@acme.test' });
    bob = await makeUser(harness, acme.organizationId, { name: 'Bob', email: 'bob@acme.test' });
    for (const user of [ann, bob]) {
      await send('POST', `/v1/teams/${desk.teamId}/members`, { userId: user.userId });
    }
    lowPolicyId = (await send('POST', '/v1/sla-policies', LOW_POLICY)).id;
    policyId = (await send('POST', '/v1/sla-policies', POLICY)).id;
    await seed();
  });
  afterAll(() => harness.close());

  const standard = (values: ReturnType<typeof slaValues>) => ({ policyId, name: 'Standard', ...values });
  const lowTouch = () => ({ policyId: lowPolicyId, name: 'Low touch', ...slaValues([1, 0], [0, 0]) });

  it('answers SLA attainment per day, per metric and per policy, each breach counted once', async () => {
    const monday = slaValues([1, 1], [1, 1]);
    const nextMonday = slaValues([0, 1], [0, 0]);
    const totals = slaValues([3, 2], [1, 2]);
    const answer = await report('sla', 'from=2026-01-12&to=2026-01-19');
    const quiet = ['14', '15', '16', '17', '18'].map((date) => ({
      start: `2026-01-${date}`,
      ...slaValues([0, 0], [0, 0]),
      byPolicy: [],
    }));
    expect(answer.series).toEqual([
      { start: '2026-01-12', ...monday, byPolicy: [standard(monday)] },
      { start: '2026-01-13', ...slaValues([2, 0], [0, 1]), byPolicy: [lowTouch(), standard(slaValues([1, 0], [0, 1]))] },
      ...quiet,
      { start: '2026-01-19', ...nextMonday, byPolicy: [standard(nextMonday)] },
    ]);
    expect(answer.totals).toEqual({ ...totals, byPolicy: [lowTouch(), standard(slaValues([2, 2], [1, 2]))] });
    expect(totals.attainment).toBe(0.5);
    expect(totals.resolution.attainment).toBeCloseTo(1 / 3);
    const breaches = await harness.db
      .selectFrom('ticket_sla_events')
      .select('id')
      .where('organization_id', '=', acme.organizationId)
      .where('kind', '=', 'breach')
      .execute();
    expect(breaches).toHaveLength(4);
  });

  it('answers SLA per week, for one agent, and nothing for another organization', async () => {
    const weeks = await report('sla', 'from=2026-01-12&to=2026-01-19&interval=week');
    expect(weeks.series).toEqual([
      { start: '2026-01-12', ...slaValues([3, 1], [1, 2]), byPolicy: [lowTouch(), standard(slaValues([2, 1], [1, 2]))] },
      { start: '2026-01-19', ...slaValues([0, 1], [0, 0]), byPolicy: [standard(slaValues([0, 1], [0, 0]))] },
    ]);
    const annOnly = await report('sla', `from=2026-01-12&to=2026-01-19&agentId=${ann.userId}`);
    expect(annOnly.totals).toEqual({ ...slaValues([3, 0], [1, 1]), byPolicy: [lowTouch(), standard(slaValues([2, 0], [1, 1]))] });
    const elsewhere = await report('sla', 'from=2026-01-12&to=2026-01-19', globex.headers);
    expect(elsewhere.totals).toEqual({ ...slaValues([0, 0], [0, 0]), byPolicy: [] });
  });

  it('answers satisfaction: a changed rating moves its count in the day of the first response', async () => {
    const answer = await report('satisfaction', 'from=2026-01-12&to=2026-01-13');
    expect(answer).toEqual({
      series: [
        { start: '2026-01-12', sent: 2, responses: 1, good: 0, bad: 1, goodShare: 0, responseRate: 0.5 },
        { start: '2026-01-13', sent: 1, responses: 1, good: 1, bad: 0, goodShare: 1, responseRate: 1 },
      ],
      totals: { sent: 3, responses: 2, good: 1, bad: 1, goodShare: 0.5, responseRate: 2 / 3 },
    });
    expect((await report('satisfaction', 'from=2026-01-12&to=2026-01-18&interval=week')).series).toEqual([
      { start: '2026-01-12', sent: 3, responses: 2, good: 1, bad: 1, goodShare: 0.5, responseRate: 2 / 3 },
    ]);
    expect((await report('satisfaction', 'from=2026-01-14&to=2026-01-14')).totals).toEqual({
      sent: 0,
      responses: 0,
      good: 0,
      bad: 0,
      goodShare: null,
      responseRate: null,
    });
  });

  it('gives each agent SLA attainment and the share of good ratings', async () => {
    const agents = (await report('agents', 'from=2026-01-12&to=2026-01-19')).totals.agents;
    const byId = new Map(agents.map((agent: { agentId: string }) => [agent.agentId, agent]));
    expect(byId.get(ann.userId)).toMatchObject({ slaAttainment: 0.8, goodShare: 0 });
    expect(byId.get(bob.userId)).toMatchObject({ slaAttainment: 0, goodShare: 1 });
    const monday = (await report('agents', `from=2026-01-12&to=2026-01-12&agentId=${bob.userId}`)).series;
    expect(monday).toEqual([expect.objectContaining({ start: '2026-01-12', slaAttainment: 0, goodShare: null })]);
  });

  it('answers the same as CSV, per-metric columns flattened', async () => {
    const headers = { ...acme.headers, accept: 'text/csv' };
    const satisfaction = await harness.app.inject({
      method: 'GET',
      url: '/v1/reports/satisfaction?from=2026-01-13&to=2026-01-13',
      headers,
    });
    expect(satisfaction.body).toBe(
      'start,sent,responses,good,bad,goodShare,responseRate\r\n2026-01-13,1,1,1,0,1,1\r\ntotal,1,1,1,0,1,1\r\n',
    );
    const response = await harness.app.inject({ method: 'GET', url: '/v1/reports/sla?from=2026-01-19&to=2026-01-19', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="sla-2026-01-19-2026-01-19.csv"');
    const columns =
      'start,policyId,policyName,firstReply_met,firstReply_breached,firstReply_attainment,nextReply_met,nextReply_breached,' +
      'nextReply_attainment,periodicUpdate_met,periodicUpdate_breached,periodicUpdate_attainment,resolution_met,' +
      'resolution_breached,resolution_attainment,attainment,breaches';
    const values = '0,1,0,0,0,,0,0,,0,0,,0,1';
    expect(response.body).toBe(
      [
        columns,
        `2026-01-19,,,${values}`,
        `2026-01-19,${policyId},Standard,${values}`,
        `total,,,${values}`,
        `total,${policyId},Standard,${values}`,
      ]
        .join('\r\n')
        .concat('\r\n'),
    );
  });

  it('refuses a reversed range and another organization’s agent, writing nothing', async () => {
    for (const name of ['sla', 'satisfaction']) {
      const reversed = await harness.app.inject({
        method: 'GET',
        url: `/v1/reports/${name}?from=2026-01-13&to=2026-01-12`,
        headers: acme.headers,
      });
      expect(reversed.statusCode).toBe(400);
      const foreign = await harness.app.inject({
        method: 'GET',
        url: `/v1/reports/${name}?from=2026-01-12&to=2026-01-13&agentId=${globex.userId}`,
        headers: acme.headers,
      });
      expect(foreign.statusCode).toBe(404);
    }
  });
});
