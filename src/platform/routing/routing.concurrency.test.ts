import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';
import { createRoutingWorker } from './routing.worker.js';

const CAPACITY = 30;
const TICKETS = 200;

/**
 * Many routings at once. On PostgreSQL two app instances with their own connection pools stand for
 * two server processes; SQLite has one writer, so one instance takes the whole load there.
 */
describe.each(DIALECTS)('routing under concurrency on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let secondHandle: DatabaseHandle | undefined;
  let second: FastifyInstance | undefined;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    if (dialect === 'postgres') {
      secondHandle = connectPostgres(harness.url as string, 5);
      second = await buildApp({
        config: harness.config,
        db: secondHandle.db,
        clock: harness.clock,
        log: pino({ level: 'silent' }),
      });
    }
  });
  afterAll(async () => {
    await second?.close();
    await secondHandle?.close();
    await harness.close();
  });

  const ok = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const response = await harness.app.inject({ method, url, headers: acme.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  const openCounts = async () => {
    const rows = await harness.db
      .selectFrom('tickets')
      .select(['assigned_agent_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('assigned_agent_id', 'is not', null)
      .where('closed_at', 'is', null)
      .groupBy('assigned_agent_id')
      .execute();
    return new Map(rows.map((row) => [row.assigned_agent_id, Number(row.n)]));
  };

  /** Tickets that more than one routing decision gave an agent to. */
  const doublyAssigned = async () =>
    harness.db
      .selectFrom('ticket_routing_decisions')
      .select(['ticket_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('agent_id', 'is not', null)
      .groupBy('ticket_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();

  it(`${TICKETS} concurrent creations in two teams sharing 3 members: no double assignment, nobody past capacity`, async () => {
    const members: string[] = [];
    for (const name of ['Ada', 'Bea', 'Cid']) {
      const user = await makeUser(harness, acme.organizationId, { name });
      await ok('PATCH', `/v1/users/${user.userId}`, { status: 'online', capacity: CAPACITY });
      members.push(user.userId);
    }
    const teams: string[] = [];
    for (const identifier of ['EAST', 'WEST']) {
      const team = await makeTeam(harness, acme, { identifier });
      await harness.db.deleteFrom('team_members').where('team_id', '=', team.teamId).where('user_id', '=', acme.userId).execute();
      for (const userId of members) {
        await ok('POST', `/v1/teams/${team.teamId}/members`, { userId });
      }
      await ok('PATCH', `/v1/teams/${team.teamId}/configurations`, {
        userRoutingStrategy: 'round_robin',
        routingRespectsUserAvailability: true,
        routingRespectsUserCapacity: true,
      });
      teams.push(team.teamId);
    }
    const apps = second ? [harness.app, second] : [harness.app];

    const responses = await Promise.all(
      Array.from({ length: TICKETS }, (_, i) =>
        (apps[i % apps.length] as FastifyInstance).inject({
          method: 'POST',
          url: '/v1/tickets',
          headers: acme.headers,
          payload: { title: `rush ${i}`, requestorEmail: `rush${i % 10}@customer.test`, teamId: teams[Math.floor(i / 2) % 2] },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(TICKETS).fill(201));
    const assigned = responses.map((response) => response.json().data.assignedAgentId).filter(Boolean);
    expect(assigned).toHaveLength(3 * CAPACITY);
    expect(await openCounts()).toEqual(new Map(members.map((userId) => [userId, CAPACITY])));
    expect(await doublyAssigned()).toEqual([]);
    const decisions = await harness.db.selectFrom('ticket_routing_decisions').select(['ticket_id', 'agent_id']).execute();
    expect(decisions).toHaveLength(TICKETS);
    const tickets = await harness.db
      .selectFrom('tickets')
      .select(['id', 'assigned_agent_id', 'awaiting_assignment_since'])
      .execute();
    const byId = new Map(tickets.map((row) => [row.id, row]));
    for (const decision of decisions) {
      expect(byId.get(decision.ticket_id)?.assigned_agent_id ?? null).toBe(decision.agent_id);
    }
    expect(tickets.filter((row) => row.awaiting_assignment_since !== null)).toHaveLength(TICKETS - 3 * CAPACITY);

    // More room, no trigger: two workers (one per "process") drain the queues at once.
    const raised = 80;
    await harness.db.updateTable('users').set({ capacity: raised }).where('id', 'in', members).execute();
    const workers = [harness.db, secondHandle?.db ?? harness.db].map((db) =>
      createRoutingWorker({
        db,
        clock: harness.clock,
        ids: harness.ids,
        config: harness.config,
        secretKey: harness.secretKey,
        log: pino({ level: 'silent' }),
      }),
    );
    const drained = await Promise.all(workers.map((worker) => worker.runOnce()));
    expect(drained.reduce((sum, n) => sum + n, 0)).toBe(TICKETS - 3 * CAPACITY);
    const counts = await openCounts();
    expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBe(TICKETS);
    for (const count of counts.values()) {
      expect(count).toBeLessThanOrEqual(raised);
    }
    expect(await doublyAssigned()).toEqual([]);
  }, 120_000);
});
