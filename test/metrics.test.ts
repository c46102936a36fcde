import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import type { Dialect } from '../src/db/dialect.js';
import { createMetrics, NAMED_LABEL_LIMIT, OTHER_LABEL } from '../src/lib/metrics.js';
import { startServer } from '../src/server.js';
import { DIALECTS } from './dialects.js';
import { makeOrganization, makeTeam, type TestOrganization, type TestTeam } from './factories.js';
import { freePort } from './free-port.js';
import { buildTestApp, createTestDatabase, TEST_NOW, type TestApp } from './harness.js';
import { startModelServer } from './model-server.js';

const TOKEN = 'metrics-token-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };

/** The families of an exposition, by name. */
function parse(text: string): Map<string, ParsedFamily> {
  return new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
}

/** The sample of `name` whose labels include `labels`, if any. */
function sample(
  families: Map<string, ParsedFamily>,
  name: string,
  labels: Record<string, string> = {},
): ParsedSample | undefined {
  return families
    .get(name)
    ?.metrics.find((candidate) => Object.entries(labels).every(([key, value]) => candidate.labels?.[key] === value));
}

const numberOf = (families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}) =>
  Number(sample(families, name, labels)?.value ?? 0);

describe.each(DIALECTS)('GET /metrics on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let support: TestTeam;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { METRICS_TOKEN: TOKEN } });
    acme = await makeOrganization(harness, { name: 'Acme' });
    support = await makeTeam(harness, acme, { name: 'Support' });
  });
  afterAll(() => harness.close());

  const scrape = async () => {
    const response = await harness.app.inject({ url: '/metrics', headers: BEARER });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(response.body);
  };

  it('asks for the token: 401 without it, with a wrong one, or another scheme; 200 with it', async () => {
    const answers = await Promise.all(
      [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }].map(
        (headers) => harness.app.inject({ url: '/metrics', headers }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(answer.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: expect.stringContaining('METRICS_TOKEN'),
      });
      expect(answer.body).not.toContain('# HELP');
    }
    expect((await harness.app.inject({ url: '/metrics', headers: BEARER })).statusCode).toBe(200);
  });

  it('counts a request by its route pattern, never its ids; an unknown path as unmatched', async () => {
    const read = await harness.app.inject({ url: `/v1/teams/${support.teamId}`, headers: acme.headers });
    expect(read.statusCode).toBe(200);
    await harness.app.inject({ url: '/no-such-page/at-all', headers: acme.headers });
    const response = await harness.app.inject({ url: '/metrics', headers: BEARER });
    expect(response.body).not.toContain(support.teamId);
    expect(response.body).not.toContain('no-such-page');
    const families = parse(response.body);
    const labels = { area: 'platform', method: 'GET', route: '/v1/teams/:teamId' };
    expect(numberOf(families, 'http_requests_total', { ...labels, status: '200' })).toBe(1);
    expect(families.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // The parser folds a histogram's labelled series into one (it keeps labels of unlabelled ones
    // only), so the route's count is read from its line.
    expect(response.body).toContain(
      'http_request_duration_seconds_count{area="platform",method="GET",route="/v1/teams/:teamId"} 1\n',
    );
    expect(numberOf(families, 'http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
  });

  it('counts a created ticket by source and team name', async () => {
    const before = numberOf(await scrape(), 'tickets_created_total', { source: 'api', team: 'Support' });
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId: support.teamId },
    });
    expect(created.statusCode).toBe(201);
    const after = await scrape();
    expect(numberOf(after, 'tickets_created_total', { source: 'api', team: 'Support' })).toBe(before + 1);
    // A refused creation counts nothing.
    const refused = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'x', requestorEmail: 'pat@customer.test', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(refused.statusCode).toBe(404);
    expect(numberOf(await scrape(), 'tickets_created_total', { source: 'api', team: 'Support' })).toBe(before + 1);
  });

  it('shows a queued outbox message in the queue depth, and how long the oldest due one waited', async () => {
    const before = numberOf(await scrape(), 'job_queue_depth', { queue: 'outbox' });
    const due = new Date(Date.parse(TEST_NOW) - 120_000).toISOString();
    await harness.db
      .insertInto('email_outbox')
      .values({
        id: harness.ids.ulid(),
        organization_id: acme.organizationId,
        dedupe_key: `metrics-test:${harness.ids.ulid()}`,
        to_address: 'pat@customer.test',
        subject: 'Queued',
        text_body: 'Waiting for the worker',
        html_body: null,
        status: 'pending',
        next_attempt_at: due,
        created_at: due,
        updated_at: due,
      })
      .execute();
    const families = await scrape();
    expect(numberOf(families, 'job_queue_depth', { queue: 'outbox' })).toBe(before + 1);
    expect(numberOf(families, 'job_queue_oldest_due_age_seconds', { queue: 'outbox' })).toBe(120);
    for (const queue of ['webhook_deliveries', 'ticket_agent_jobs', 'chat_reply_emails', 'routing']) {
      expect(sample(families, 'job_queue_depth', { queue })?.value).toBeDefined();
    }
  });

  it("includes the Node process's metrics, and the pool's use on PostgreSQL only", async () => {
    const families = await scrape();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(families.get(name)?.metrics.length).toBeGreaterThan(0);
    }
    if (dialect === 'postgres') {
      expect(numberOf(families, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(families, 'db_pool_connections', { state: 'waiting' })?.value).toBeDefined();
    } else {
      expect(families.has('db_pool_connections')).toBe(false);
    }
  });
});

describe.each(DIALECTS)('agent runs in /metrics on %s', (dialect) => {
  it('counts each run that ended by its outcome, once', async () => {
    const harness = await buildTestApp(dialect, { env: { METRICS_TOKEN: TOKEN, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    const model = await startModelServer();
    try {
      const acme = await makeOrganization(harness);
      const studio = (method: 'POST', url: string, payload: object) =>
        harness.app.inject({ method, url: `/api/v1${url}`, headers: acme.headers, payload });
      const provider = await studio('POST', '/model-providers', {
        name: 'Loopback',
        kind: 'openai_compatible',
        base_url: model.baseUrl,
        api_key: 'sk-test',
        default_model: 'test-model',
      });
      expect(provider.statusCode, provider.body).toBe(200);
      const agent = await studio('POST', '/agents', {
        name: 'Helper',
        configuration: { model_provider_id: provider.json().id, system_instructions: 'Be brief.' },
      });
      const agentId = agent.json().id as string;
      const thread = await studio('POST', `/chat/${agentId}/threads`, { title: 'Talk' });
      const send = (content: string) =>
        studio('POST', `/chat/${agentId}/threads/${thread.json().id}/messages`, { role: 'user', content });
      model.script({ text: 'Hello.' }, { kind: 'error', status: 400, message: 'bad request' });
      expect((await send('Hi')).json().content).toBe('Hello.');
      expect((await send('Again')).json().content).toMatch(/^The agent could not answer/);
      const families = parse((await harness.app.inject({ url: '/metrics', headers: BEARER })).body);
      expect(numberOf(families, 'ai_runs_total', { outcome: 'succeeded' })).toBe(1);
      expect(numberOf(families, 'ai_runs_total', { outcome: 'failed' })).toBe(1);
    } finally {
      await harness.close();
      await model.close();
    }
  });
});

describe.each(DIALECTS)('where /metrics is exposed on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  it('is not found without METRICS_TOKEN or METRICS_PORT, with a token or without', async () => {
    const harness = await buildTestApp(dialect);
    cleanups.push(() => harness.close());
    for (const headers of [{}, BEARER]) {
      const response = await harness.app.inject({ url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /metrics' });
    }
  });

  it('answers on METRICS_PORT, a listener of its own, while the API listener answers 404', async () => {
    const database = await freshDatabase(dialect);
    cleanups.push(database.drop);
    const [port, metricsPort] = [await freePort(), await freePort()];
    const ports = { PORT: String(port), METRICS_PORT: String(metricsPort) };
    const config = parseConfig({ HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...ports, ...database.env });
    const server = await startServer(config, pino({ level: 'silent' }), () => {});
    cleanups.push(() => server.close());
    expect(server.addresses).toHaveLength(2);
    const onApi = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await fetch(`http://127.0.0.1:${port}/healthz`).then((answer) => answer.status)).toBe(200);
    const onMetrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(onMetrics.status).toBe(200);
    const families = parse(await onMetrics.text());
    // The API listener's request is in the process's one registry, which the metrics listener shows.
    expect(numberOf(families, 'http_requests_total', { route: '/healthz', status: '200' })).toBe(1);
    expect(families.get('job_queue_depth')?.metrics.length).toBeGreaterThan(0);
    expect(await fetch(`http://127.0.0.1:${metricsPort}/v1/users/me`).then((answer) => answer.status)).toBe(404);
  });
});

/** A fresh database for `startServer`: an empty data folder (SQLite) or a new PostgreSQL database. */
async function freshDatabase(dialect: Dialect): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase('postgres');
    return { env: { DATABASE_URL: database.url ?? '', SECRET_KEY: '5e'.repeat(32) }, drop: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-metrics-'));
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe('business metrics', () => {
  it(`caps a label of names at ${NAMED_LABEL_LIMIT} distinct values per process, the rest counted as ${OTHER_LABEL}`, async () => {
    const metrics = createMetrics();
    for (let n = 0; n <= NAMED_LABEL_LIMIT + 5; n += 1) {
      metrics.slaBreached({ policy: `Policy ${n}`, metric: 'firstReply' });
    }
    metrics.slaBreached({ policy: 'Policy 0', metric: 'resolution' });
    const families = parse(await metrics.scrape());
    const policies = new Set(families.get('sla_breaches_total')?.metrics.map((entry) => entry.labels?.policy));
    expect(policies.size).toBe(NAMED_LABEL_LIMIT + 1);
    expect(numberOf(families, 'sla_breaches_total', { policy: OTHER_LABEL, metric: 'firstReply' })).toBe(6);
    expect(numberOf(families, 'sla_breaches_total', { policy: 'Policy 0', metric: 'resolution' })).toBe(1);
  });

  it("shows the SLA worker's lag once it reports one, as it last set it, and counts agent runs by outcome", async () => {
    const metrics = createMetrics();
    expect(parse(await metrics.scrape()).has('sla_worker_lag_seconds')).toBe(false);
    metrics.setSlaWorkerLag(12.5);
    metrics.aiRunEnded('succeeded');
    metrics.aiRunEnded('succeeded');
    metrics.aiRunEnded('abandoned');
    const families = parse(await metrics.scrape());
    expect(numberOf(families, 'sla_worker_lag_seconds')).toBe(12.5);
    expect(numberOf(families, 'ai_runs_total', { outcome: 'succeeded' })).toBe(2);
    expect(numberOf(families, 'ai_runs_total', { outcome: 'abandoned' })).toBe(1);
  });
});
