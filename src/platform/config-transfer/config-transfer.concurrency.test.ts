import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TEST_ENV, configureOrganization } from '../../../test/config-organization.js';
import { configureServiceLevels } from '../../../test/config-service-levels.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

const IMPORTS = 4;

/**
 * Several imports of one document into one organization at once, spread over two app instances
 * with their own pools on PostgreSQL (two server processes); SQLite has one writer. Imports take
 * turns on the organization's row, so the first creates everything (SLA policies at their positions
 * among it) and the others find it made.
 */
describe.each(DIALECTS)('configuration imports under concurrency on %s', (dialect) => {
  let harness: TestApp;
  let processes: Awaited<ReturnType<typeof serverProcesses>>;
  let globex: TestOrganization;
  let document: unknown;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: CONFIG_TEST_ENV });
    processes = await serverProcesses(harness);
    const acme = await makeOrganization(harness, { name: 'Acme' });
    const agent = await makeUser(harness, acme.organizationId, { email: 'agent@config.test' });
    const configured = await configureOrganization(harness.app, acme.headers, agent.userId);
    await configureServiceLevels(harness.app, acme.headers, configured);
    document = (await harness.app.inject({ url: '/v1/config/export', headers: acme.headers })).json().data;
    globex = await makeOrganization(harness, { name: 'Globex' });
    await makeUser(harness, globex.organizationId, { email: 'agent@config.test' });
  }, 60_000);
  afterAll(async () => {
    await processes?.close();
    await harness?.close();
  });

  it(`${IMPORTS} concurrent imports of one document: one creates everything, the others change nothing`, async () => {
    const responses = await Promise.all(
      Array.from({ length: IMPORTS }, (_, index) =>
        (processes.apps[index % processes.apps.length] as FastifyInstance).inject({
          method: 'POST',
          url: '/v1/config/import',
          headers: globex.headers,
          payload: document as object,
        }),
      ),
    );
    expect(
      responses.map((response) => response.statusCode),
      responses.map((response) => response.body).join('\n'),
    ).toEqual(Array(IMPORTS).fill(200));
    const counts = responses.map((response) => response.json().data.changes.length).sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts.slice(1)).toEqual(Array(IMPORTS - 1).fill(0));
    const exported = await harness.app.inject({ url: '/v1/config/export', headers: globex.headers });
    expect(exported.json().data).toEqual(document);
  });
});
