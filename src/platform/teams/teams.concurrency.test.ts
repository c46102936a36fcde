import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';

const CREATES = 20;

/**
 * Many creates of one name at once. On PostgreSQL two app instances with their own connection
 * pools stand for two server processes; SQLite has one writer, so one instance takes them all.
 */
describe.each(DIALECTS)('team creates under concurrency on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let secondHandle: DatabaseHandle | undefined;
  let apps: FastifyInstance[];

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    apps = [harness.app];
    if (dialect === 'postgres') {
      secondHandle = connectPostgres(harness.url as string, 5);
      apps.push(
        await buildApp({ config: harness.config, db: secondHandle.db, clock: harness.clock, log: pino({ level: 'silent' }) }),
      );
    }
  });
  afterAll(async () => {
    await apps[1]?.close();
    await secondHandle?.close();
    await harness.close();
  });

  /** `CREATES` creates at once, spread over the instances. */
  const createAll = (payload: object) =>
    Promise.all(
      Array.from({ length: CREATES }, (_, index) =>
        (apps[index % apps.length] as FastifyInstance).inject({
          method: 'POST',
          url: '/v1/teams',
          headers: acme.headers,
          payload,
        }),
      ),
    );

  it(`${CREATES} concurrent creates of one name, no identifier sent: all 201, each with its own derived identifier`, async () => {
    const responses = await createAll({ name: 'Same' });
    expect(
      responses.map((response) => response.statusCode),
      responses.map((response) => response.body).join('\n'),
    ).toEqual(Array(CREATES).fill(201));
    const identifiers = responses.map((response) => response.json().data.identifier as string);
    const expected = ['SAM', ...Array.from({ length: CREATES - 1 }, (_, index) => `SAM${index + 2}`)];
    expect([...identifiers].sort()).toEqual([...expected].sort());
    const teams = await harness.db.selectFrom('teams').select('identifier').where('name', '=', 'Same').execute();
    expect(teams).toHaveLength(CREATES);
    const configurations = await harness.db
      .selectFrom('team_configurations')
      .innerJoin('teams', 'teams.id', 'team_configurations.team_id')
      .select('teams.id')
      .where('teams.name', '=', 'Same')
      .execute();
    expect(configurations).toHaveLength(CREATES);
  });

  it('an identifier the client sends is still a 409 when taken: one of the concurrent creates wins', async () => {
    const responses = await createAll({ name: 'Clash', identifier: 'clash' });
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(CREATES - 1);
    for (const response of responses.filter((each) => each.statusCode === 409)) {
      expect(response.json()).toEqual({
        statusCode: 409,
        message: 'Team with this identifier already exists!',
        error: 'Conflict',
      });
    }
    const teams = await harness.db.selectFrom('teams').select('id').where('name', '=', 'Clash').execute();
    expect(teams).toHaveLength(1);
  });

  it('a derived identifier steps around one a client chose, and a client choosing a derived one gets the 409', async () => {
    const chosen = await harness.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: acme.headers,
      payload: { name: 'Chosen', identifier: 'ROU' },
    });
    expect(chosen.statusCode).toBe(201);
    const derived = await harness.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: acme.headers,
      payload: { name: 'Round' },
    });
    expect(derived.json().data.identifier).toBe('ROU2');
    const taken = await harness.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: acme.headers,
      payload: { name: 'Other', identifier: 'rou2' },
    });
    expect(taken.statusCode).toBe(409);
  });
});
