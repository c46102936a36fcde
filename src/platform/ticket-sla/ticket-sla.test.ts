import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { recordSlaAgentReply } from './ticket-sla.service.js';

const NINE_TO_FIVE = { isActive: true, slots: [{ start: '09:00', end: '17:00' }] };
const CLOSED = { isActive: false, slots: [] };
const WEEKDAYS = {
  monday: NINE_TO_FIVE,
  tuesday: NINE_TO_FIVE,
  wednesday: NINE_TO_FIVE,
  thursday: NINE_TO_FIVE,
  friday: NINE_TO_FIVE,
  saturday: CLOSED,
  sunday: CLOSED,
};
const TARGETS = {
  high: { firstReply: 60, nextReply: 120, periodicUpdate: 240, resolution: 480 },
  medium: { firstReply: 240, resolution: 960 },
};

type Target = { metric: string; dueAt: string | null; status: string; metAt: string | null; breachedAt: string | null };

describe.each(DIALECTS)('the ticket SLA clock on %s', (dialect) => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
  });
  afterAll(() => harness.close());

  /** An organization with a team working 9 to 5 on weekdays in `timezone`, and policies. */
  async function setUp(options: { timezone?: string; policies?: Record<string, unknown>[]; holidays?: string[] } = {}) {
    harness.clock.set(TEST_NOW);
    const org = await makeOrganization(harness);
    const team = await makeTeam(harness, org);
    const hours = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/teams/${team.teamId}/configurations`,
      headers: org.headers,
      payload: {
        timezone: options.timezone ?? 'UTC',
        commonDailyConfig: false,
        dailyConfig: WEEKDAYS,
        holidays: options.holidays ?? [],
      },
    });
    expect(hours.statusCode, hours.body).toBe(200);
    for (const policy of options.policies ?? [{ name: 'Standard', targets: TARGETS }]) {
      const created = await harness.app.inject({
        method: 'POST',
        url: '/v1/sla-policies',
        headers: org.headers,
        payload: policy,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    return { org, teamId: team.teamId };
  }

  const createTicket = async (org: TestOrganization, teamId: string, priorityName = 'High') => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: org.headers,
      payload: { title: 'Help', requestorEmail: 'customer@example.com', teamId, priorityName },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; sla: { policyId: string; targets: Target[] } | null };
  };
  const getTicket = async (org: TestOrganization, id: string) => {
    const response = await harness.app.inject({ url: `/v1/tickets/${id}`, headers: org.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { sla: { policyId: string; targets: Target[] } | null };
  };
  const patchTicket = async (org: TestOrganization, id: string, payload: Record<string, unknown>) => {
    const response = await harness.app.inject({ method: 'PATCH', url: `/v1/tickets/${id}`, headers: org.headers, payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { sla: { policyId: string; targets: Target[] } | null };
  };
  const comment = async (org: TestOrganization, id: string, payload: Record<string, unknown>) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${id}/comment`,
      headers: org.headers,
      payload,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  const events = async (org: TestOrganization, id: string) => {
    const response = await harness.app.inject({ url: `/v1/tickets/${id}/sla-events`, headers: org.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      kind: string;
      metric: string | null;
      reason: string;
      actorType: string;
      actorId: string | null;
    }[];
  };
  const target = (sla: { targets: Target[] } | null, metric: string) => sla?.targets.find((entry) => entry.metric === metric);

  it('starts first reply and resolution on creation, in business time over the night', async () => {
    const { org, teamId } = await setUp();
    harness.clock.set('2026-01-15T16:30:00.000Z'); // Thursday
    const ticket = await createTicket(org, teamId);
    expect(ticket.sla?.targets).toEqual([
      { metric: 'firstReply', dueAt: '2026-01-16T09:30:00.000Z', status: 'active', breachedAt: null, metAt: null },
      { metric: 'resolution', dueAt: '2026-01-16T16:30:00.000Z', status: 'active', breachedAt: null, metAt: null },
    ]);
    expect((await events(org, ticket.id)).map((event) => [event.kind, event.metric, event.reason, event.actorId])).toEqual([
      ['start', 'firstReply', 'ticket created', org.userId],
      ['start', 'resolution', 'ticket created', org.userId],
    ]);
  });

  it('skips the weekend and holidays, and counts in the team zone across a DST change', async () => {
    const weekend = await setUp({ holidays: ['19-01'] });
    harness.clock.set('2026-01-16T16:30:00.000Z'); // Friday; Monday is a holiday
    const ticket = await createTicket(weekend.org, weekend.teamId);
    expect(target(ticket.sla, 'firstReply')?.dueAt).toBe('2026-01-20T09:30:00.000Z');
    const berlin = await setUp({ timezone: 'Europe/Berlin' });
    harness.clock.set('2026-03-27T15:30:00.000Z'); // Friday 16:30 CET
    const spring = await createTicket(berlin.org, berlin.teamId);
    expect(target(spring.sla, 'firstReply')?.dueAt).toBe('2026-03-30T07:30:00.000Z'); // Monday 09:30 CEST
    const newYork = await setUp({ timezone: 'America/New_York' });
    harness.clock.set('2026-10-30T20:30:00.000Z'); // Friday 16:30 EDT
    const autumn = await createTicket(newYork.org, newYork.teamId);
    expect(target(autumn.sla, 'firstReply')?.dueAt).toBe('2026-11-02T14:30:00.000Z'); // Monday 09:30 EST
  });

  it('moves due times when the priority changes and when the team hours change', async () => {
    const { org, teamId } = await setUp();
    harness.clock.set('2026-01-15T16:30:00.000Z');
    const ticket = await createTicket(org, teamId);
    const medium = await patchTicket(org, ticket.id, { priorityName: 'Medium' });
    expect(target(medium.sla, 'firstReply')?.dueAt).toBe('2026-01-16T12:30:00.000Z');
    const hours = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/teams/${teamId}/configurations`,
      headers: org.headers,
      payload: { dailyConfig: { friday: { isActive: true, slots: [{ start: '10:00', end: '17:00' }] } } },
    });
    expect(hours.statusCode).toBe(200);
    expect(target((await getTicket(org, ticket.id)).sla, 'firstReply')?.dueAt).toBe('2026-01-16T13:30:00.000Z');
    const kinds = (await events(org, ticket.id)).map((event) => [event.kind, event.metric, event.reason]);
    expect(kinds).toContainEqual(['recalculated', 'firstReply', 'priority Medium']);
    expect(kinds).toContainEqual(['recalculated', 'firstReply', "team's business hours changed"]);
  });

  it('pauses in On hold, keeping consumed time, and shows who parked it', async () => {
    const { org, teamId } = await setUp();
    const agent = await makeUser(harness, org.organizationId, { userType: 'ORG_ADMIN' });
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    harness.clock.set('2026-01-15T10:15:00.000Z');
    const parked = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}`,
      headers: agent.headers,
      payload: { statusName: 'On hold' },
    });
    expect(target(parked.json().data.sla, 'firstReply')).toMatchObject({ status: 'paused', dueAt: null });
    harness.clock.set('2026-01-19T10:00:00.000Z'); // Monday
    const resumed = await patchTicket(org, ticket.id, { statusName: 'Open' });
    expect(target(resumed.sla, 'firstReply')).toMatchObject({ status: 'active', dueAt: '2026-01-19T10:45:00.000Z' });
    const timeline = await events(org, ticket.id);
    expect(timeline.filter((event) => event.kind === 'pause')).toEqual([
      expect.objectContaining({ metric: 'firstReply', reason: 'status On hold', actorType: 'user', actorId: agent.userId }),
      expect.objectContaining({ metric: 'resolution', reason: 'status On hold', actorId: agent.userId }),
    ]);
    expect(timeline.filter((event) => event.kind === 'resume').map((event) => event.reason)).toEqual([
      'status Open',
      'status Open',
    ]);
  });

  it('meets first reply with a public reply, not an internal note, and starts next reply on the customer comment', async () => {
    const { org, teamId } = await setUp();
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    await comment(org, ticket.id, { content: 'Looking', commentVisibility: 'private' });
    expect(target((await getTicket(org, ticket.id)).sla, 'firstReply')?.status).toBe('active');
    harness.clock.set('2026-01-15T10:20:00.000Z');
    await comment(org, ticket.id, { content: 'Hello!', commentVisibility: 'public' });
    let sla = (await getTicket(org, ticket.id)).sla;
    expect(target(sla, 'firstReply')).toMatchObject({ status: 'met', metAt: '2026-01-15T10:20:00.000Z' });
    expect(target(sla, 'periodicUpdate')).toMatchObject({ status: 'active', dueAt: '2026-01-15T14:20:00.000Z' });
    harness.clock.set('2026-01-15T11:00:00.000Z');
    await comment(org, ticket.id, { content: 'Still broken', customerEmail: 'customer@example.com' });
    sla = (await getTicket(org, ticket.id)).sla;
    expect(target(sla, 'nextReply')).toMatchObject({ status: 'active', dueAt: '2026-01-15T13:00:00.000Z' });
    harness.clock.set('2026-01-15T11:30:00.000Z');
    await comment(org, ticket.id, { content: 'Fixed', commentVisibility: 'public' });
    expect(target((await getTicket(org, ticket.id)).sla, 'nextReply')).toMatchObject({ status: 'met' });
  });

  it('meets the first reply once when two agents reply at the same time', async () => {
    const { org, teamId } = await setUp();
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    await Promise.all([
      comment(org, ticket.id, { content: 'One', commentVisibility: 'public' }),
      comment(org, ticket.id, { content: 'Two', commentVisibility: 'public' }),
    ]);
    const met = (await events(org, ticket.id)).filter((event) => event.kind === 'met' && event.metric === 'firstReply');
    expect(met).toHaveLength(1);
  });

  it('meets resolution on close and resumes it on reopen; reads breached once past due', async () => {
    const { org, teamId } = await setUp();
    harness.clock.set('2026-01-15T09:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const closed = await patchTicket(org, ticket.id, { statusName: 'Closed' });
    expect(target(closed.sla, 'resolution')).toMatchObject({ status: 'met', metAt: '2026-01-15T10:00:00.000Z' });
    harness.clock.set('2026-01-15T11:00:00.000Z');
    const reopened = await patchTicket(org, ticket.id, { statusName: 'Open' });
    // 60 minutes consumed before closing: 420 left from 11:00.
    expect(target(reopened.sla, 'resolution')).toMatchObject({
      status: 'active',
      dueAt: '2026-01-16T10:00:00.000Z',
      metAt: null,
    });
    harness.clock.set('2026-01-16T10:00:01.000Z');
    expect(target((await getTicket(org, ticket.id)).sla, 'resolution')).toMatchObject({
      status: 'breached',
      breachedAt: '2026-01-16T10:00:00.000Z',
    });
    expect((await events(org, ticket.id)).map((event) => [event.kind, event.reason])).toContainEqual([
      'resume',
      'ticket reopened',
    ]);
  });

  it('lets the first matching policy win, and records a policy change', async () => {
    const urgent = JSON.stringify({ field: 'priority', operator: 'equals', value: 'urgent' });
    const { org, teamId } = await setUp({
      policies: [
        { name: 'Urgent', andRules: [urgent], targets: { urgent: { firstReply: 15 } }, businessHours: false },
        { name: 'Everything', targets: TARGETS },
      ],
    });
    const policies = (await harness.app.inject({ url: '/v1/sla-policies', headers: org.headers })).json().data;
    harness.clock.set('2026-01-15T16:50:00.000Z');
    const ticket = await createTicket(org, teamId);
    expect(ticket.sla?.policyId).toBe(policies[1].id);
    const changed = await patchTicket(org, ticket.id, { priorityName: 'Urgent' });
    expect(changed.sla).toEqual({
      policyId: policies[0].id,
      targets: [{ metric: 'firstReply', dueAt: '2026-01-15T17:05:00.000Z', status: 'active', breachedAt: null, metAt: null }],
    });
    const timeline = await events(org, ticket.id);
    expect(timeline).toContainEqual(expect.objectContaining({ kind: 'policy_change', reason: 'policy "Urgent" applies' }));
  });

  it('keeps a met first reply met when another policy starts to apply', async () => {
    const vip = JSON.stringify({ field: 'tags', operator: 'contains', value: 'vip' });
    const { org, teamId } = await setUp({
      policies: [
        { name: 'VIP', andRules: [vip], targets: { high: { firstReply: 30, resolution: 120 } } },
        { name: 'Everything', targets: TARGETS },
      ],
    });
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    await comment(org, ticket.id, { content: 'On it', commentVisibility: 'public' });
    const tag = await harness.app.inject({
      method: 'POST',
      url: `/v1/teams/${teamId}/tags`,
      headers: org.headers,
      payload: { name: 'vip' },
    });
    expect(tag.statusCode, tag.body).toBeLessThan(300);
    const tagged = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticket.id}/tags`,
      headers: org.headers,
      payload: { tagIds: ['vip'] },
    });
    expect(tagged.statusCode, tagged.body).toBeLessThan(300);
    const sla = (await getTicket(org, ticket.id)).sla;
    expect(target(sla, 'firstReply')).toMatchObject({ status: 'met', metAt: '2026-01-15T10:00:00.000Z' });
    expect(target(sla, 'resolution')).toMatchObject({ status: 'active', dueAt: '2026-01-15T12:00:00.000Z' });
    expect((await events(org, ticket.id)).map((event) => event.kind)).toContain('policy_change');
  });

  it("counts an AI agent's public reply only when the policy says so", async () => {
    for (const aiRepliesCount of [false, true]) {
      const { org, teamId } = await setUp({ policies: [{ name: 'AI', targets: TARGETS, aiRepliesCount }] });
      harness.clock.set('2026-01-15T10:00:00.000Z');
      const ticket = await createTicket(org, teamId);
      await recordSlaAgentReply(harness.db, harness, {
        organizationId: org.organizationId,
        ticketId: ticket.id,
        actor: { type: 'user', id: org.userId },
        ai: true,
      });
      expect(target((await getTicket(org, ticket.id)).sla, 'firstReply')?.status).toBe(aiRepliesCount ? 'met' : 'active');
    }
  });

  it('has no SLA without a matching policy, and the events of another organization are a 404', async () => {
    const { org, teamId } = await setUp({ policies: [] });
    const ticket = await createTicket(org, teamId);
    expect(ticket.sla).toBeNull();
    expect(await events(org, ticket.id)).toEqual([]);
    const other = await makeOrganization(harness);
    const foreign = await harness.app.inject({ url: `/v1/tickets/${ticket.id}/sla-events`, headers: other.headers });
    expect(foreign.statusCode).toBe(404);
  });

  it('sets pausesSla on a status: On hold by default, changed by admins only', async () => {
    const { org, teamId } = await setUp();
    const member = await makeUser(harness, org.organizationId);
    const statuses = (await harness.app.inject({ url: `/v1/tickets/statuses?teamId=${teamId}`, headers: org.headers })).json()
      .data as { id: string; name: string; pausesSla: boolean }[];
    expect(statuses.map((status) => [status.name, status.pausesSla])).toEqual([
      ['Open', false],
      ['In progress', false],
      ['On hold', true],
      ['Closed', false],
    ]);
    const inProgress = statuses[1]?.id ?? '';
    const url = `/v1/tickets/statuses/${inProgress}`;
    const refused = await harness.app.inject({ method: 'PATCH', url, headers: member.headers, payload: { pausesSla: true } });
    expect(refused.statusCode).toBe(403);
    const other = await makeOrganization(harness);
    expect(
      (await harness.app.inject({ method: 'PATCH', url, headers: other.headers, payload: { pausesSla: true } })).statusCode,
    ).toBe(404);
    const bad = await harness.app.inject({ method: 'PATCH', url, headers: org.headers, payload: { pausesSla: 'yes' } });
    expect(bad.statusCode).toBe(400);
    const changed = await harness.app.inject({
      method: 'PATCH',
      url,
      headers: org.headers,
      payload: { pausesSla: true, displayName: 'Waiting' },
    });
    expect(changed.json().data).toMatchObject({ name: 'Waiting', pausesSla: true });
    harness.clock.set('2026-01-15T10:00:00.000Z');
    const ticket = await createTicket(org, teamId);
    const paused = await patchTicket(org, ticket.id, { statusId: inProgress });
    expect(target(paused.sla, 'firstReply')?.status).toBe('paused');
    harness.clock.set('2026-01-15T10:30:00.000Z');
    const running = await harness.app.inject({ method: 'PATCH', url, headers: org.headers, payload: { pausesSla: false } });
    expect(running.statusCode).toBe(200);
    expect(target((await getTicket(org, ticket.id)).sla, 'firstReply')).toMatchObject({
      status: 'active',
      dueAt: '2026-01-15T11:30:00.000Z',
    });
  });
});
