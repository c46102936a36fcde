import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { createTestDatabase, TEST_NOW, testConfig } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../../db/connect.js';
import { fixedClock } from '../../lib/clock.js';
import { createIdFactory } from '../../lib/ids.js';

/**
 * Two servers on one database, each with its own connections (a pool of several on PostgreSQL, a
 * second SQLite connection to the same file): what two processes of a deployment would be.
 */
describe.each(DIALECTS)('custom-field versions across two app instances on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let second: DatabaseHandle;
  let apps: FastifyInstance[];
  let organization: TestOrganization;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    second =
      dialect === 'postgres'
        ? connectPostgres(database.url ?? '', 5)
        : connectSqlite(join(database.dataDir ?? '', 'switchboard.db'));
    const clock = fixedClock(TEST_NOW);
    const ids = createIdFactory(clock);
    apps = await Promise.all(
      [database.db, second.db].map((db) => buildApp({ config: testConfig(), db, clock, ids, log: pino({ level: 'silent' }) })),
    );
    organization = await makeOrganization({ db: database.db, clock, ids });
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await second.close();
    await database.drop();
  });

  it('of two concurrent updates at the same version, one per instance, exactly one wins', async () => {
    const headers = organization.headers;
    const [left, right] = apps as [FastifyInstance, FastifyInstance];
    for (let round = 0; round < 10; round++) {
      const created = await left.inject({
        method: 'POST',
        url: '/v1/custom-field',
        headers,
        payload: { name: `Contested ${round}`, source: 'ticket', fieldType: 'single_line' },
      });
      const uid = created.json().data.uid;
      const [one, two] = await Promise.all(
        [left, right].map((app, side) =>
          app.inject({
            method: 'PATCH',
            url: '/v1/custom-field',
            headers,
            payload: { fields: [{ fieldId: uid, version: 1, updates: { hintText: `side ${side}` } }] },
          }),
        ),
      );
      expect([one?.statusCode, two?.statusCode].sort(), `${one?.body} ${two?.body}`).toEqual([200, 409]);
      const loser = [one, two].find((response) => response?.statusCode === 409);
      expect(loser?.json().message).toContain(`${uid} (sent version 1, current version 2, last changed by `);
      const after = (await right.inject({ url: `/v1/custom-field/${uid}`, headers })).json().data;
      expect(after.version).toBe(2);
    }
  });

  it('20 concurrent creates of one name, spread over both instances: all 201, each with its own slug', async () => {
    const headers = organization.headers;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (apps[index % 2] as FastifyInstance).inject({
          method: 'POST',
          url: '/v1/custom-field',
          headers,
          payload: { name: 'Same Name', source: 'customer_contact', fieldType: 'single_line' },
        }),
      ),
    );
    expect(
      responses.map((response) => response.statusCode),
      responses.map((response) => response.body).join('\n'),
    ).toEqual(Array(20).fill(201));
    const slugs = responses.map((response) => response.json().data.slug as string).sort();
    expect(slugs).toEqual(['same-name', ...Array.from({ length: 19 }, (_, index) => `same-name-${index + 2}`)].sort());
  });

  it('overlapping bulk updates listing fields in opposite orders never deadlock', async () => {
    const headers = organization.headers;
    const [left, right] = apps as [FastifyInstance, FastifyInstance];
    const make = async (name: string) =>
      (
        await left.inject({
          method: 'POST',
          url: '/v1/custom-field',
          headers,
          payload: { name, source: 'account', fieldType: 'integer' },
        })
      ).json().data.uid as string;
    for (let round = 0; round < 5; round++) {
      const a = await make(`A${round}`);
      const b = await make(`B${round}`);
      const entries = (first: string, next: string) => [
        { fieldId: first, version: 1, updates: { hintText: 'x' } },
        { fieldId: next, version: 1, updates: { hintText: 'x' } },
      ];
      const responses = await Promise.all([
        left.inject({ method: 'PATCH', url: '/v1/custom-field', headers, payload: { fields: entries(a, b) } }),
        right.inject({ method: 'PATCH', url: '/v1/custom-field', headers, payload: { fields: entries(b, a) } }),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    }
  });
});
