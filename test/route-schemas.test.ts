import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { fixedClock } from '../src/lib/clock.js';
import { DIALECTS } from './dialects.js';
import { createTestDatabase, TEST_NOW, testConfig } from './harness.js';

/** A body schema Ajv refuses, and a response schema fast-json-stringify cannot build. */
const BROKEN_BODY = { type: 'object', properties: { name: { type: 'text' } } };
const BROKEN_RESPONSE = { type: 'object', properties: { name: { $ref: '#/definitions/missing' } } };

/**
 * A server compiles each route's validators and serializers on first use, so a schema error would
 * only show when someone calls the route. Here every route is compiled at `ready()`, as Fastify
 * does by default, so `npm test` fails on it instead.
 */
describe.each(DIALECTS)('route schemas on %s', (dialect) => {
  const opened: { app: FastifyInstance; drop(): Promise<void> }[] = [];

  afterEach(async () => {
    for (const { app, drop } of opened.splice(0)) {
      await app.close();
      await drop();
    }
  });

  async function build(options: { compileSchemasAtStart: boolean; brokenRoutes?: boolean }): Promise<FastifyInstance> {
    const database = await createTestDatabase(dialect);
    const app = await buildApp({
      config: testConfig(),
      db: database.db,
      clock: fixedClock(TEST_NOW),
      log: pino({ level: 'silent' }),
      compileSchemasAtStart: options.compileSchemasAtStart,
    });
    opened.push({ app, drop: database.drop });
    if (options.brokenRoutes) {
      const open = { config: { public: true } };
      app.post('/broken-body', { ...open, schema: { body: BROKEN_BODY } }, async () => ({}));
      app.get('/broken-response', { ...open, schema: { response: { 200: BROKEN_RESPONSE } } }, async () => ({ name: 'x' }));
    }
    return app;
  }

  it("compiles every route's request validators and response serializers", async () => {
    const app = await build({ compileSchemasAtStart: true });
    await expect(app.ready()).resolves.toBeDefined();
  });

  it('fails the start on a schema the validator refuses, naming the route', async () => {
    const app = await build({ compileSchemasAtStart: true, brokenRoutes: true });
    await expect(app.ready()).rejects.toThrow(/POST: \/broken-body/);
  });

  it('fails the start on a response schema the serializer cannot build, naming the route', async () => {
    const app = await build({ compileSchemasAtStart: true });
    app.get('/broken-response', { config: { public: true }, schema: { response: { 200: BROKEN_RESPONSE } } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/GET: \/broken-response/);
  });

  it('compiles on first use otherwise: the start does not wait, the first call meets the error as a fault', async () => {
    const app = await build({ compileSchemasAtStart: false, brokenRoutes: true });
    await app.ready();
    expect((await app.inject({ method: 'POST', url: '/broken-body', payload: {} })).statusCode).toBe(500);
    expect((await app.inject({ url: '/broken-response' })).statusCode).toBe(500);
  });
});
