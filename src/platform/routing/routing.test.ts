import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList, idsInOrder } from '../../../test/platform-list-pages.js';
import { createRoutingWorker } from './routing.worker.js';

interface Agent {
  userId: string;
  name: string;
  headers: { 'x-api-key': string };
}

const condition = (field: string, operator: string, value?: unknown) => JSON.stringify({ field, operator, value });

describe.each(DIALECTS)('routing on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
  });
  afterAll(() => harness.close());
  afterEach(() => harness.clock.set(TEST_NOW));

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });

  async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  }

  /** A user of Acme with the routing profile given (online by default). */
  async function agent(name: string, profile: { status?: string; capacity?: number | null; timezone?: string } = {}) {
    const user = await makeUser(harness, acme.organizationId, { name, email: `${name.toLowerCase()}${Date.now()}@acme.test` });
    await ok('PATCH', `/v1/users/${user.userId}`, { status: 'online', ...profile });
    return { userId: user.userId, name, headers: user.headers };
  }

  /** A round-robin team of exactly these members, in this join order, with the configuration given. */
  async function team(
    members: Agent[],
    configuration: object = {},
    overrides: { identifier?: string; parentTeamId?: string } = {},
  ) {
    const made = await makeTeam(harness, acme, overrides);
    // The factory makes the organization's admin the owner and a member; these teams hold only the agents named.
    await harness.db.deleteFrom('team_members').where('team_id', '=', made.teamId).where('user_id', '=', acme.userId).execute();
    for (const member of members) {
      await ok('POST', `/v1/teams/${made.teamId}/members`, { userId: member.userId });
    }
    await ok('PATCH', `/v1/teams/${made.teamId}/configurations`, { userRoutingStrategy: 'round_robin', ...configuration });
    return made;
  }

  const create = async (teamId: string, extra: object = {}) =>
    (await ok('POST', '/v1/tickets', { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId, ...extra })).data;
  const simulate = async (teamId: string, body: object = {}) =>
    (await ok('POST', `/v1/teams/${teamId}/routing/simulate`, body)).data;
  const history = async (ticketId: string) => (await ok('GET', `/v1/tickets/${ticketId}/routing-history`)).data;
  const ticket = async (ticketId: string) => (await ok('GET', `/v1/tickets/${ticketId}`)).data;
  const eligibleNames = (verdict: { members: { name: string; eligible: boolean }[] }) =>
    verdict.members.filter((member) => member.eligible).map((member) => member.name);
  const addRule = (teamId: string, body: object) => ok('POST', `/v1/teams/${teamId}/routing`, { name: 'rule', ...body });
  const worker = () =>
    createRoutingWorker({
      db: harness.db,
      clock: harness.clock,
      ids: harness.ids,
      config: harness.config,
      secretKey: harness.secretKey,
      log: pino({ level: 'silent' }),
    });

  describe('agent choice', () => {
    it('manual (every new team): nobody is assigned, the ticket waits in the queue and the history says why', async () => {
      const ann = await agent('Ann');
      const desk = await team([ann], { userRoutingStrategy: 'manual' });
      const created = await create(desk.teamId);
      expect(created).toMatchObject({ teamId: desk.teamId, assignedAgentId: null });
      const [decision] = await history(created.id);
      expect(decision).toMatchObject({
        trigger: 'create',
        outcome: 'manual',
        teamId: desk.teamId,
        agentId: null,
        matchedRule: null,
        stop: 'no_match',
        team: { strategy: 'manual', outcome: 'manual', teamOpen: null },
        decidedById: acme.userId,
      });
      expect(decision.team.members).toEqual([
        expect.objectContaining({ name: 'Ann', eligible: false, reason: expect.stringContaining('assigns manually') }),
      ]);
    });

    it('round robin: 30 tickets over 3 members go A, B, C in turn, even within one millisecond', async () => {
      const members = [await agent('Ava'), await agent('Ben'), await agent('Cal')];
      const desk = await team(members);
      const assigned: string[] = [];
      for (let i = 0; i < 30; i++) {
        assigned.push((await create(desk.teamId, { title: `ticket ${i}` })).assignedAgentId);
      }
      const ids = members.map((member) => member.userId);
      expect(assigned).toEqual(Array.from({ length: 30 }, (_, i) => ids[i % 3]));
      const last = await ticket((await create(desk.teamId)).id);
      expect(last.assignedAgentId).toBe(ids[0]);
      expect(last.assignedAgent).toBe('Ava');
    });

    it('round robin passes over a disabled member, whatever its status', async () => {
      const [gil, hal] = [await agent('Gil'), await agent('Hal')];
      const desk = await team([gil, hal], { routingRespectsUserAvailability: false });
      await ok('PATCH', `/v1/users/${gil.userId}`, { disabled: true });
      const assignees = [];
      for (let index = 0; index < 3; index++) {
        assignees.push((await create(desk.teamId)).assignedAgentId);
      }
      expect(assignees).toEqual([hal.userId, hal.userId, hal.userId]);
    });

    it('round robin follows the time since the last assignment', async () => {
      const [dee, eli] = [await agent('Dee'), await agent('Eli')];
      const desk = await team([dee, eli]);
      expect((await create(desk.teamId)).assignedAgentId).toBe(dee.userId);
      harness.clock.advance(60_000);
      expect((await create(desk.teamId)).assignedAgentId).toBe(eli.userId);
      harness.clock.advance(60_000);
      // Eli takes a ticket in another team: Dee has now waited longest.
      const other = await team([eli]);
      expect((await create(other.teamId)).assignedAgentId).toBe(eli.userId);
      harness.clock.advance(60_000);
      expect((await create(desk.teamId)).assignedAgentId).toBe(dee.userId);
      expect((await create(desk.teamId)).assignedAgentId).toBe(eli.userId);
    });

    it('routingRespectsUserAvailability: on, only online members; off, everyone', async () => {
      const members = [await agent('Fay'), await agent('Gus', { status: 'away' }), await agent('Hal', { status: 'offline' })];
      const desk = await team(members, { routingRespectsUserAvailability: true });
      const on = await simulate(desk.teamId);
      expect(eligibleNames(on.team)).toEqual(['Fay']);
      expect(on.team.members[1]).toMatchObject({
        name: 'Gus',
        status: 'away',
        eligible: false,
        checks: [{ check: 'availability', passed: false, detail: 'status is away, not online' }],
      });
      expect((await create(desk.teamId)).assignedAgentId).toBe(members[0]?.userId);
      expect((await create(desk.teamId)).assignedAgentId).toBe(members[0]?.userId);

      await ok('PATCH', `/v1/teams/${desk.teamId}/configurations`, { routingRespectsUserAvailability: false });
      const off = await simulate(desk.teamId);
      expect(eligibleNames(off.team)).toEqual(['Fay', 'Gus', 'Hal']);
      expect(off.team.members[2]).toMatchObject({ eligible: true, checks: [], reason: 'eligible: no routing switch applies' });
      expect((await create(desk.teamId)).assignedAgentId).toBe(members[1]?.userId);
    });

    it('routingRespectsUserCapacity: on, members at capacity are skipped and tickets wait; off, capacity is ignored', async () => {
      const [ivy, jon] = [await agent('Ivy', { capacity: 1 }), await agent('Jon', { capacity: 2 })];
      const desk = await team([ivy, jon], { routingRespectsUserCapacity: true });
      const first = await create(desk.teamId);
      const second = await create(desk.teamId);
      const third = await create(desk.teamId);
      expect([first, second, third].map((t) => t.assignedAgentId)).toEqual([ivy.userId, jon.userId, jon.userId]);
      const fourth = await create(desk.teamId);
      expect(fourth.assignedAgentId).toBeNull();
      const [decision] = await history(fourth.id);
      expect(decision.outcome).toBe('no_eligible_agent');
      expect(decision.team.members).toEqual([
        expect.objectContaining({ name: 'Ivy', openTickets: 1, capacity: 1, eligible: false }),
        expect.objectContaining({ name: 'Jon', openTickets: 2, capacity: 2, eligible: false }),
      ]);
      expect(decision.team.members[0].checks).toEqual([
        { check: 'capacity', passed: false, detail: '1 open ticket of capacity 1, at capacity' },
      ]);

      await ok('PATCH', `/v1/teams/${desk.teamId}/configurations`, { routingRespectsUserCapacity: false });
      expect((await create(desk.teamId)).assignedAgentId).toBe(ivy.userId);
      const rows = await harness.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('assigned_agent_id', '=', ivy.userId)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(2);
    });

    it('an explicit assignedAgentId wins over routing, even past capacity', async () => {
      const [kim, lou] = [await agent('Kim', { capacity: 0 }), await agent('Lou')];
      const desk = await team([kim, lou], { routingRespectsUserCapacity: true });
      const created = await create(desk.teamId, { assignedAgentId: kim.userId });
      expect(created.assignedAgentId).toBe(kim.userId);
      const [decision] = await history(created.id);
      expect(decision).toMatchObject({ outcome: 'explicit_agent', agentId: kim.userId, agentName: 'Kim', team: null });
      expect((await create(desk.teamId)).assignedAgentId).toBe(lou.userId);
    });

    it('performRouting false: no rules, no agent, no decision', async () => {
      const [mo] = [await agent('Mo')];
      const desk = await team([mo]);
      const elsewhere = await team([]);
      await addRule(desk.teamId, { resultTeamId: elsewhere.teamId });
      const created = await create(desk.teamId, { performRouting: false });
      expect(created).toMatchObject({ teamId: desk.teamId, assignedAgentId: null });
      expect(await history(created.id)).toEqual([]);
    });

    it("routingRespectsUserBusinessHours and routingRespectsUserTimezone: own hours, team hours, read in each one's zone", async () => {
      // Thursday 09:00 UTC = 18:00 in Tokyo = 04:00 in New York.
      const tokyo = await agent('Nao');
      await ok(
        'PATCH',
        '/v1/users/business-hours',
        { timezone: 'Asia/Tokyo', commonDailyConfig: true, commonSlots: [{ start: '17:00', end: '23:00' }] },
        tokyo.headers,
      );
      const newYork = await agent('Ora', { timezone: 'America/New_York' });
      const plain = await agent('Pia');
      const desk = await team([tokyo, newYork, plain]);
      const read = async (switches: object) => {
        await ok('PATCH', `/v1/teams/${desk.teamId}/configurations`, switches);
        return eligibleNames((await simulate(desk.teamId)).team);
      };
      expect(await read({ routingRespectsUserBusinessHours: false, routingRespectsUserTimezone: false })).toEqual([
        'Nao',
        'Ora',
        'Pia',
      ]);
      // Own hours in the team's zone (UTC): Nao's 17:00-23:00 is not yet; the default 09:00-17:00 is.
      expect(await read({ routingRespectsUserBusinessHours: true, routingRespectsUserTimezone: false })).toEqual(['Ora', 'Pia']);
      // Own hours in own zones: 18:00 in Tokyo is inside, 04:00 in New York is not; Pia has no zone: the team's.
      expect(await read({ routingRespectsUserBusinessHours: true, routingRespectsUserTimezone: true })).toEqual(['Nao', 'Pia']);
      // The team's hours (09:00-17:00) read in each member's zone.
      expect(await read({ routingRespectsUserBusinessHours: false, routingRespectsUserTimezone: true })).toEqual(['Pia']);
      const explained = await simulate(desk.teamId);
      expect(explained.team.members[0].checks).toEqual([
        {
          check: 'businessHours',
          passed: false,
          detail: 'outside team hours read in their own time zone (Asia/Tokyo, Thu 2026-01-15 18:00)',
        },
      ]);
      expect((await create(desk.teamId)).assignedAgentId).toBe(plain.userId);
    });

    it('routingRespectsTimezone: outside team hours tickets wait; off, they are assigned', async () => {
      const quin = await agent('Quin');
      const desk = await team([quin], { routingRespectsTimezone: true });
      harness.clock.set('2026-01-15T20:00:00.000Z');
      const waiting = await create(desk.teamId);
      expect(waiting.assignedAgentId).toBeNull();
      const [decision] = await history(waiting.id);
      expect(decision).toMatchObject({ outcome: 'team_closed', team: { teamOpen: false, outcome: 'team_closed' } });
      expect(decision.team.members[0].checks[0]).toEqual({
        check: 'teamHours',
        passed: false,
        detail: 'team is closed: outside team hours (UTC, Thu 2026-01-15 20:00)',
      });
      await ok('PATCH', `/v1/teams/${desk.teamId}/configurations`, { routingRespectsTimezone: false });
      expect((await create(desk.teamId)).assignedAgentId).toBe(quin.userId);
    });

    it('a holiday near midnight UTC closes the team for its whole local day; the worker assigns when it opens', async () => {
      const rae = await agent('Rae');
      const desk = await team([rae], {
        routingRespectsTimezone: true,
        timezone: 'America/New_York',
        commonDailyConfig: true,
        commonSlots: [{ start: '00:00', end: '24:00' }],
        holidays: ['25-12'],
      });
      // 03:00 UTC on the 26th is still the 25th, 22:00, in New York.
      harness.clock.set('2026-12-26T03:00:00.000Z');
      const created = await create(desk.teamId);
      expect(created.assignedAgentId).toBeNull();
      const [decision] = await history(created.id);
      expect(decision.team.members[0].reason).toBe(
        'not eligible: team is closed: holiday 25-12 (America/New_York, Fri 2026-12-25 22:00)',
      );
      await worker().runOnce();
      expect((await ticket(created.id)).assignedAgentId).toBeNull();
      // 05:30 UTC is 00:30 on the 26th in New York: open.
      harness.clock.set('2026-12-26T05:30:00.000Z');
      expect(await worker().runOnce()).toBeGreaterThanOrEqual(1);
      expect((await ticket(created.id)).assignedAgentId).toBe(rae.userId);
      const decisions = await history(created.id);
      expect(decisions).toHaveLength(2);
      expect(decisions[1]).toMatchObject({ trigger: 'worker', outcome: 'assigned', stop: 'not_evaluated', agentName: 'Rae' });
    });

    it('team hours follow a DST change: 07:30 UTC is closed before it and open after it', async () => {
      const sol = await agent('Sol');
      const desk = await team([sol], { routingRespectsTimezone: true, timezone: 'Europe/Paris' });
      // Friday 27 March 2026: 08:30 in Paris (UTC+1), before opening. Monday 30 March: 09:30 (UTC+2).
      const before = await simulate(desk.teamId, { at: '2026-03-27T07:30:00.000Z' });
      expect(before).toMatchObject({ outcome: 'team_closed', agentId: null, team: { teamOpen: false } });
      const after = await simulate(desk.teamId, { at: '2026-03-30T07:30:00.000Z' });
      expect(after).toMatchObject({ outcome: 'assigned', agentId: sol.userId, team: { teamOpen: true } });
      expect(after.team.members[0].checks[0].detail).toBe('team is open (Europe/Paris, Mon 2026-03-30 09:30)');
      harness.clock.set('2026-03-27T07:30:00.000Z');
      expect((await create(desk.teamId)).assignedAgentId).toBeNull();
      harness.clock.set('2026-03-30T07:30:00.000Z');
      expect((await create(desk.teamId)).assignedAgentId).toBe(sol.userId);
    });

    it('nobody eligible: the fallback sub-team is tried the same way; the ticket stays in its team', async () => {
      const [tia, uma] = [await agent('Tia', { status: 'offline' }), await agent('Uma')];
      const parent = await team([tia], { routingRespectsUserAvailability: true });
      const night = await team([uma], { routingRespectsUserAvailability: true }, { parentTeamId: parent.teamId });
      await ok('PATCH', `/v1/teams/${parent.teamId}/configurations`, { fallbackSubTeam: night.teamId });
      const created = await create(parent.teamId);
      expect(created).toMatchObject({ teamId: parent.teamId, assignedAgentId: uma.userId });
      const [decision] = await history(created.id);
      expect(decision).toMatchObject({
        outcome: 'assigned',
        teamId: parent.teamId,
        agentId: uma.userId,
        agentTeamId: night.teamId,
        team: { outcome: 'no_eligible_agent', agentId: null },
        fallbackSubTeam: { teamId: night.teamId, outcome: 'assigned', agentId: uma.userId },
      });
      // The sub-team assigning by hand (or nobody eligible there either): the ticket waits unassigned.
      await ok('PATCH', `/v1/teams/${night.teamId}/configurations`, { userRoutingStrategy: 'manual' });
      const waiting = await create(parent.teamId);
      expect(waiting.assignedAgentId).toBeNull();
      expect((await history(waiting.id))[0]).toMatchObject({
        outcome: 'no_eligible_agent',
        fallbackSubTeam: { outcome: 'manual' },
      });
    });
  });

  describe('waiting tickets', () => {
    it('are assigned oldest first when a member comes online, up to capacity, and when a ticket closes', async () => {
      const vic = await agent('Vic', { status: 'offline', capacity: 2 });
      const desk = await team([vic], { routingRespectsUserAvailability: true, routingRespectsUserCapacity: true });
      const queued: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await create(desk.teamId, { title: `queued ${i}` });
        expect(created.assignedAgentId).toBeNull();
        queued.push(created.id);
        harness.clock.advance(1000);
      }
      const [oldest, middle, newest] = queued as [string, string, string];
      await ok('PATCH', `/v1/users/${vic.userId}`, { status: 'online' });
      const agents = await Promise.all(queued.map(async (id) => (await ticket(id)).assignedAgentId));
      expect(agents).toEqual([vic.userId, vic.userId, null]);
      expect((await history(oldest))[1]).toMatchObject({ trigger: 'member_available', outcome: 'assigned' });
      expect((await history(middle))[1]).toMatchObject({ trigger: 'member_available', outcome: 'assigned' });

      await ok('PATCH', `/v1/tickets/${oldest}`, { statusName: 'Closed' });
      expect((await ticket(newest)).assignedAgentId).toBe(vic.userId);
      expect((await history(newest))[1]).toMatchObject({ trigger: 'ticket_closed', agentId: vic.userId });
    });

    it('a ticket assigned by hand no longer waits', async () => {
      const [wes, xia] = [await agent('Wes', { status: 'offline' }), await agent('Xia', { status: 'offline' })];
      const desk = await team([wes, xia], { routingRespectsUserAvailability: true });
      const created = await create(desk.teamId);
      await ok('PATCH', `/v1/tickets/${created.id}`, { assignedAgentId: xia.userId });
      await ok('PATCH', `/v1/tickets/${created.id}`, { assignedAgentId: null });
      await ok('PATCH', `/v1/users/${wes.userId}`, { status: 'online' });
      expect((await ticket(created.id)).assignedAgentId).toBeNull();
    });
  });

  describe('team choice', () => {
    it('follows matching rules from team to team, first match in evaluation order, and numbers the ticket where it lands', async () => {
      const yul = await agent('Yul');
      const front = await team([], {}, { identifier: 'FRONT' });
      const billing = await team([], {}, { identifier: 'BILL' });
      const vip = await team([yul], {}, { identifier: 'VIP' });
      await addRule(front.teamId, {
        name: 'Refunds',
        evaluationOrder: 2,
        resultTeamId: vip.teamId,
        andRules: [condition('title', 'contains', 'refund')],
      });
      const invoices = await addRule(front.teamId, {
        name: 'Invoices',
        evaluationOrder: 1,
        resultTeamId: billing.teamId,
        orRules: [condition('title', 'contains', 'invoice'), condition('title', 'contains', 'refund')],
      });
      await addRule(billing.teamId, {
        name: 'Urgent billing',
        resultTeamId: vip.teamId,
        andRules: [condition('priority', 'in', ['high', 'urgent']), condition('status', 'equals', 'open')],
      });

      const stays = await create(front.teamId, { title: 'Password reset' });
      expect(stays).toMatchObject({ teamId: front.teamId, ticketIdentifier: 'FRONT-1' });
      const calm = await create(front.teamId, { title: 'Refund my invoice' });
      expect(calm).toMatchObject({ teamId: billing.teamId, ticketIdentifier: 'BILL-1', priority: 'Medium', status: 'Open' });
      const urgent = await create(front.teamId, { title: 'Refund please', priorityName: 'High' });
      expect(urgent).toMatchObject({
        teamId: vip.teamId,
        teamIdentifier: 'VIP',
        ticketIdentifier: 'VIP-1',
        priority: 'High',
        assignedAgentId: yul.userId,
      });
      const vipStatuses = (await ok('GET', `/v1/tickets/statuses?teamId=${vip.teamId}`)).data;
      expect(vipStatuses.map((status: { id: string }) => status.id)).toContain(urgent.statusId);
      const [decision] = await history(urgent.id);
      expect(decision).toMatchObject({
        startTeamId: front.teamId,
        fromTeamId: front.teamId,
        teamId: vip.teamId,
        matchedRule: { id: invoices.data.id, name: 'Invoices', teamId: front.teamId, evaluationOrder: 1 },
        stop: 'no_match',
        outcome: 'assigned',
      });
      expect(decision.hops).toEqual([
        expect.objectContaining({ fromTeamId: front.teamId, ruleName: 'Invoices', toTeamId: billing.teamId, via: 'resultTeam' }),
        expect.objectContaining({ fromTeamId: billing.teamId, ruleName: 'Urgent billing', toTeamId: vip.teamId }),
      ]);
    });

    it('never loops and stops after 5 hops', async () => {
      const [a, b, c] = [await team([]), await team([]), await team([])];
      await addRule(a.teamId, { resultTeamId: b.teamId });
      await addRule(b.teamId, { resultTeamId: c.teamId });
      await addRule(c.teamId, { resultTeamId: a.teamId });
      const looped = await simulate(a.teamId);
      expect(looped).toMatchObject({ teamId: c.teamId, stop: 'loop' });
      expect(looped.hops.map((hop: { toTeamId: string | null }) => hop.toTeamId)).toEqual([b.teamId, c.teamId, null]);

      const chain: { teamId: string }[] = [];
      for (let i = 0; i < 8; i++) {
        chain.push(await team([]));
      }
      for (let i = 0; i < 7; i++) {
        await addRule(chain[i]?.teamId ?? '', { resultTeamId: chain[i + 1]?.teamId });
      }
      const far = await simulate(chain[0]?.teamId ?? '');
      expect(far).toMatchObject({ teamId: chain[5]?.teamId, stop: 'max_hops' });
      expect(far.hops).toHaveLength(5);
      expect((await create(chain[0]?.teamId ?? '')).teamId).toBe(chain[5]?.teamId);
    });

    it('takes the fallbackTeamId when the result team is archived, and stays when both are gone', async () => {
      const [start, result, fallback] = [await team([]), await team([]), await team([])];
      await addRule(start.teamId, { resultTeamId: result.teamId, fallbackTeamId: fallback.teamId });
      expect((await simulate(start.teamId)).teamId).toBe(result.teamId);
      await ok('DELETE', `/v1/teams/${result.teamId}`);
      const viaFallback = await simulate(start.teamId);
      expect(viaFallback).toMatchObject({ teamId: fallback.teamId, stop: 'no_match' });
      expect(viaFallback.hops[0]).toMatchObject({ via: 'fallbackTeam', toTeamId: fallback.teamId });
      expect((await create(start.teamId)).teamId).toBe(fallback.teamId);
      await ok('DELETE', `/v1/teams/${fallback.teamId}`);
      const stuck = await simulate(start.teamId);
      expect(stuck).toMatchObject({ teamId: start.teamId, stop: 'unavailable' });
      expect(stuck.hops[0]).toMatchObject({ toTeamId: null, via: null });
    });
  });

  describe('simulate', () => {
    it('explains the rule, team, agent and every member, and changes nothing', async () => {
      const [zed, amy] = [await agent('Zed'), await agent('Amy', { status: 'away' })];
      const intake = await team([]);
      const support = await team([zed, amy], { routingRespectsUserAvailability: true });
      const matched = await addRule(intake.teamId, {
        name: 'Support',
        resultTeamId: support.teamId,
        andRules: [condition('customField.plan', 'equals', 'gold')],
      });
      const count = async (table: 'tickets' | 'ticket_routing_decisions') =>
        Number(
          (
            await harness.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = { tickets: await count('tickets'), decisions: await count('ticket_routing_decisions') };
      const lastAssigned = async () =>
        (await harness.db.selectFrom('users').select('last_assigned_at').where('id', '=', zed.userId).executeTakeFirstOrThrow())
          .last_assigned_at;
      const assignedBefore = await lastAssigned();

      const response = await call('POST', `/v1/teams/${intake.teamId}/routing/simulate`, {
        title: 'Upgrade',
        customFieldValues: [{ fieldId: 'plan', value: 'Gold' }],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: true, message: 'Success', timestamp: TEST_NOW });
      expect(response.json().data).toEqual({
        at: TEST_NOW,
        startTeamId: intake.teamId,
        matchedRule: { id: matched.data.id, name: 'Support', teamId: intake.teamId, evaluationOrder: 0 },
        hops: [
          {
            fromTeamId: intake.teamId,
            ruleId: matched.data.id,
            ruleName: 'Support',
            evaluationOrder: 0,
            resultTeamId: support.teamId,
            fallbackTeamId: null,
            toTeamId: support.teamId,
            via: 'resultTeam',
            note: 'moved to the result team',
          },
        ],
        stop: 'no_match',
        teamId: support.teamId,
        teamName: support.name,
        outcome: 'assigned',
        agentId: zed.userId,
        agentName: 'Zed',
        agentTeamId: support.teamId,
        team: {
          teamId: support.teamId,
          strategy: 'round_robin',
          teamOpen: null,
          outcome: 'assigned',
          agentId: zed.userId,
          members: [
            {
              userId: zed.userId,
              name: 'Zed',
              email: expect.any(String),
              status: 'online',
              capacity: null,
              openTickets: 0,
              lastAssignedAt: null,
              eligible: true,
              reason: 'eligible: status is online',
              checks: [{ check: 'availability', passed: true, detail: 'status is online' }],
            },
            expect.objectContaining({ name: 'Amy', eligible: false, reason: 'not eligible: status is away, not online' }),
          ],
        },
        fallbackSubTeam: null,
        ruleEvaluations: [
          {
            ruleId: matched.data.id,
            ruleName: 'Support',
            evaluationOrder: 0,
            reached: true,
            matched: true,
            conditions: [
              {
                group: 'and',
                index: 0,
                field: 'customField.plan',
                operator: 'equals',
                value: 'gold',
                matched: true,
                problem: null,
              },
            ],
          },
        ],
      });
      const none = await simulate(intake.teamId, { customFieldValues: [{ fieldId: 'plan', value: 'silver' }] });
      expect(none).toMatchObject({ matchedRule: null, hops: [], teamId: intake.teamId, stop: 'no_match' });
      expect({ tickets: await count('tickets'), decisions: await count('ticket_routing_decisions') }).toEqual(before);
      expect(await lastAssigned()).toBe(assignedBefore);
    });

    it("shows each rule of the team in order with each condition's outcome, and which rules were not reached", async () => {
      const intake = await team([]);
      const billing = await team([]);
      const urgent = await addRule(intake.teamId, {
        name: 'Urgent refunds',
        resultTeamId: billing.teamId,
        andRules: [condition('priority', 'equals', 'urgent'), condition('title', 'contains', 'refund')],
      });
      const either = await addRule(intake.teamId, {
        name: 'Refund or invoice',
        resultTeamId: billing.teamId,
        orRules: [condition('title', 'contains', 'invoice'), condition('title', 'contains', 'refund')],
      });
      const later = await addRule(intake.teamId, {
        name: 'Everything else',
        resultTeamId: billing.teamId,
        andRules: [condition('description', 'is_empty')],
      });
      const explained = await simulate(intake.teamId, { title: 'Refund please', priorityName: 'low' });
      expect(explained.matchedRule).toMatchObject({ id: either.data.id });
      const outcome = (field: string, operator: string, value: unknown, matched: boolean, group = 'and', index = 0) => ({
        group,
        index,
        field,
        operator,
        value,
        matched,
        problem: null,
      });
      expect(explained.ruleEvaluations).toEqual([
        {
          ruleId: urgent.data.id,
          ruleName: 'Urgent refunds',
          evaluationOrder: 0,
          reached: true,
          matched: false,
          conditions: [outcome('priority', 'equals', 'urgent', false), outcome('title', 'contains', 'refund', true, 'and', 1)],
        },
        {
          ruleId: either.data.id,
          ruleName: 'Refund or invoice',
          evaluationOrder: 1,
          reached: true,
          matched: true,
          conditions: [
            outcome('title', 'contains', 'invoice', false, 'or', 0),
            outcome('title', 'contains', 'refund', true, 'or', 1),
          ],
        },
        {
          ruleId: later.data.id,
          ruleName: 'Everything else',
          evaluationOrder: 2,
          reached: false,
          matched: true,
          conditions: [outcome('description', 'is_empty', null, true)],
        },
      ]);
      // A team without rules answers an empty account of them.
      expect((await simulate(billing.teamId, { title: 'Refund please' })).ruleEvaluations).toEqual([]);
    });

    it("answers 400 for an unknown priority or body field, 404 for another organization's team", async () => {
      const desk = await team([]);
      const badPriority = await call('POST', `/v1/teams/${desk.teamId}/routing/simulate`, { priorityName: 'Whenever' });
      expect(badPriority.statusCode).toBe(400);
      expect(badPriority.json().message).toContain('priorityName must be one of');
      const unknown = await call('POST', `/v1/teams/${desk.teamId}/routing/simulate`, { colour: 'red' });
      expect(unknown.statusCode).toBe(400);
      const foreign = await call('POST', `/v1/teams/${desk.teamId}/routing/simulate`, {}, globex.headers);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ statusCode: 404, message: 'Team not found!', error: 'Not Found' });
    });
  });

  describe('re-route and history', () => {
    it('routes an existing ticket again, renumbering it in its new team', async () => {
      const [bo, cy] = [await agent('Bo'), await agent('Cy')];
      const inbox = await team([bo], {}, { identifier: 'INBOX' });
      const experts = await team([cy], {}, { identifier: 'EXP' });
      const created = await create(inbox.teamId);
      expect(created).toMatchObject({ ticketIdentifier: 'INBOX-1', assignedAgentId: bo.userId });
      await addRule(inbox.teamId, { resultTeamId: experts.teamId, andRules: [condition('title', 'contains', 'printer')] });

      const response = await call('POST', `/v1/tickets/${created.id}/route`);
      expect(response.statusCode).toBe(200);
      const { ticket: rerouted, decision } = response.json().data;
      expect(rerouted).toMatchObject({
        id: created.id,
        teamId: experts.teamId,
        ticketIdentifier: 'EXP-1',
        assignedAgentId: cy.userId,
        status: 'Open',
      });
      expect(decision).toMatchObject({
        trigger: 'reroute',
        fromTeamId: inbox.teamId,
        teamId: experts.teamId,
        previousTicketIdentifier: 'INBOX-1',
        agentId: cy.userId,
        decidedById: acme.userId,
      });
      const decisions = await history(created.id);
      expect(decisions.map((entry: { trigger: string }) => entry.trigger)).toEqual(['create', 'reroute']);
      expect(decisions[1]).toEqual(decision);
      // Bo's ticket went with the move: it no longer counts against him.
      expect((await simulate(inbox.teamId, { title: 'other' })).team.members[0]).toMatchObject({ name: 'Bo', openTickets: 0 });
    });

    it('answers 409 for a closed ticket and 404 for an unknown or foreign one', async () => {
      const desk = await team([]);
      const closed = await create(desk.teamId, { statusName: 'Closed' });
      expect(await history(closed.id)).toEqual([]);
      const conflict = await call('POST', `/v1/tickets/${closed.id}/route`);
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toEqual({ statusCode: 409, message: 'A closed ticket is not routed!', error: 'Conflict' });
      const open = await create(desk.teamId);
      for (const [url, headers] of [
        [`/v1/tickets/${open.id}/route`, globex.headers],
        [`/v1/tickets/${open.id}/routing-history`, globex.headers],
        ['/v1/tickets/01KAAAAAAAAAAAAAAAAAAAAAAA/route', acme.headers],
      ] as const) {
        const response = await call(url.endsWith('history') ? 'GET' : 'POST', url, undefined, headers);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Ticket not found!', error: 'Not Found' });
      }
    });
  });
});

describe.each(DIALECTS)('routing history pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const ok = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const response = await harness.app.inject({ method, url, headers, ...(payload && { payload }) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  };
  const ticket = async (org: TestOrganization) => {
    const { teamId } = await makeTeam(harness, org);
    return ok('POST', '/v1/tickets', org.headers, { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId });
  };

  it("pages a ticket's decisions oldest first by cursor, never another ticket's or organization's", async () => {
    const created = await ticket(acme);
    const other = await ticket(acme);
    const decisions: { id: string; at: string }[] = [];
    for (let n = 1; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      const { decision } = await ok('POST', `/v1/tickets/${created.id}/route`, acme.headers);
      decisions.push({ id: decision.id, at: decision.createdAt });
      await ok('POST', `/v1/tickets/${other.id}/route`, acme.headers);
    }
    const all = await harness.db
      .selectFrom('ticket_routing_decisions')
      .select(['id', 'created_at'])
      .where('ticket_id', '=', created.id)
      .execute();
    expect(all).toHaveLength(25);
    const globexTicket = await ticket(globex);
    const globexDecisions = await harness.db
      .selectFrom('ticket_routing_decisions')
      .select('id')
      .where('ticket_id', '=', globexTicket.id)
      .execute();

    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/tickets/${created.id}/routing-history?limit=10`,
      headers: acme.headers,
      read: envelopePage,
      expected: idsInOrder(all.map((row) => ({ id: row.id, at: row.created_at }))),
      pageNumbers: false,
      other: {
        url: `/v1/tickets/${globexTicket.id}/routing-history?limit=10`,
        headers: globex.headers,
        ids: globexDecisions.map((row) => row.id),
      },
    });
    expect(decisions.every((decision) => all.some((row) => row.id === decision.id))).toBe(true);
  });
});
