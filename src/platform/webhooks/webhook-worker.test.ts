import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startWebhookReceiver, type WebhookReceiver, webhookWorkerOf } from '../../../test/webhook-receiver.js';
import { connectPostgres } from '../../db/connect.js';
import type { DB } from '../../db/database.js';
import { createIdFactory } from '../../lib/ids.js';
import { RETRY_DELAYS_MS } from './webhook.delivery.js';
import type { WebhookWorker, WebhookWorkerOptions } from './webhook.worker.js';

const SECRET_KEY = 'c3'.repeat(32);
const ENV = { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', SECRET_KEY };
const HOUR = 3_600_000;

interface Delivery {
  id: string;
  eventId: string | null;
  status: string;
  nextAttemptAt: string | null;
  attempts: { startedAt: string; statusCode: number | null; error: string | null }[];
}

/** The worker's rules over time: retries, order per endpoint, disabling, several workers at once. */
describe.each(DIALECTS)('webhook worker on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let receiver: WebhookReceiver;
  let worker: WebhookWorker;

  const workerOn = (db: import('kysely').Kysely<DB>, options: WebhookWorkerOptions = {}, ids = harness.ids) =>
    webhookWorkerOf(harness, { db, ids, worker: options });

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: ENV });
    acme = await makeOrganization(harness, { name: 'Acme' });
    receiver = await startWebhookReceiver(harness.clock);
    worker = workerOn(harness.db);
  });
  afterEach(async () => {
    harness.clock.set(TEST_NOW);
    receiver.reset();
    await harness.db.deleteFrom('webhooks').execute();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await harness?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: object = acme.headers) =>
    harness.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: object = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    const body = response.json();
    return body && typeof body === 'object' && 'data' in body ? body.data : body;
  }
  async function createHook(name: string, headers: object = acme.headers) {
    const webhook = await ok(
      'POST',
      '/v1/webhooks',
      { url: `${receiver.base}/hooks/${name}`, eventTypes: ['contact.created'] },
      headers,
    );
    receiver.trust(`/hooks/${name}`, { secret: webhook.secret });
    return webhook as { id: string; secret: string };
  }
  let contacts = 0;
  /** A contact.created event; answers its contact's email. */
  async function newEvent(headers: object = acme.headers): Promise<string> {
    const email = `c${++contacts}@customer.test`;
    await ok('POST', '/v1/accounts/contacts', { firstName: 'C', email }, headers);
    return email;
  }
  const emailOf = (entry: { event: { data: Record<string, unknown> } }) => entry.event.data.email as string;
  async function drain(on = worker): Promise<void> {
    for (let pass = 0; pass < 50; pass++) {
      if ((await on.runOnce()) === 0) {
        return;
      }
    }
    throw new Error('the worker never ran out of work');
  }
  const deliveries = async (webhookId: string, headers: object = acme.headers): Promise<Delivery[]> =>
    ok('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, undefined, headers);

  it('retries a failed delivery on the schedule until the receiver recovers', async () => {
    const webhook = await createHook('flaky');
    let failures = 3;
    receiver.reply('/hooks/flaky', () => (failures-- > 0 ? { status: 500, body: 'oops' } : { status: 200 }));
    await newEvent();
    await drain();
    const attemptTimes = async () => (await deliveries(webhook.id))[0]?.attempts.map((attempt) => attempt.startedAt);
    expect(await attemptTimes()).toEqual([TEST_NOW]);
    expect((await deliveries(webhook.id))[0]).toMatchObject({ status: 'pending', nextAttemptAt: '2026-01-15T09:00:05.000Z' });
    expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBe(TEST_NOW);

    // Not before its time.
    harness.clock.set('2026-01-15T09:00:04.999Z');
    await drain();
    expect(await attemptTimes()).toHaveLength(1);
    harness.clock.set('2026-01-15T09:00:05.000Z');
    await drain();
    expect((await deliveries(webhook.id))[0]?.nextAttemptAt).toBe('2026-01-15T09:05:05.000Z');
    harness.clock.set('2026-01-15T09:05:05.000Z');
    await drain();
    expect((await deliveries(webhook.id))[0]?.nextAttemptAt).toBe('2026-01-15T09:35:05.000Z');
    harness.clock.set('2026-01-15T09:35:05.000Z');
    await drain();

    const [delivery] = await deliveries(webhook.id);
    expect(delivery).toMatchObject({ status: 'delivered', nextAttemptAt: null });
    expect(delivery?.attempts.map((attempt) => [attempt.startedAt, attempt.statusCode])).toEqual([
      [TEST_NOW, 500],
      ['2026-01-15T09:00:05.000Z', 500],
      ['2026-01-15T09:05:05.000Z', 500],
      ['2026-01-15T09:35:05.000Z', 200],
    ]);
    // Every attempt the same message, each verified.
    const got = receiver.at('/hooks/flaky');
    expect(new Set(got.map((entry) => entry.headers['webhook-id']))).toEqual(new Set([delivery?.id]));
    expect(got.every((entry) => entry.verifiedBy.length === 1)).toBe(true);
    expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBeNull();
  });

  it("delivers an endpoint's events in order: a later one waits while an earlier one is retried, other endpoints do not", async () => {
    const slow = await createHook('ordered');
    await createHook('other');
    let firstFailures = 2;
    let first: string | undefined;
    receiver.reply('/hooks/ordered', (request) => {
      first ??= emailOf(request);
      return emailOf(request) === first && firstFailures-- > 0 ? { status: 503 } : { status: 200 };
    });
    const a = await newEvent();
    const b = await newEvent();
    const c = await newEvent();
    await drain();
    expect(receiver.at('/hooks/ordered').map(emailOf)).toEqual([a]);
    expect(receiver.at('/hooks/other').map(emailOf)).toEqual([a, b, c]);
    // The later ones have no time of their own yet: they go when the first is done.
    expect((await deliveries(slow.id)).map((delivery) => [delivery.status, delivery.nextAttemptAt])).toEqual([
      ['pending', null],
      ['pending', null],
      ['pending', '2026-01-15T09:00:05.000Z'],
    ]);
    harness.clock.advance(5_000);
    await drain();
    expect(receiver.at('/hooks/ordered').map(emailOf)).toEqual([a, a]);
    harness.clock.advance(5 * 60_000);
    await drain();
    expect(receiver.at('/hooks/ordered').map(emailOf)).toEqual([a, a, a, b, c]);
    expect((await deliveries(slow.id)).map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('gives up on a delivery after its last attempt, then sends the next; disables an endpoint failing for 3 days and emails its owner', async () => {
    const owner = await makeUser(harness, acme.organizationId, { name: 'Owen', email: 'owen@acme.test', userType: 'ORG_ADMIN' });
    const webhook = await createHook('down', owner.headers);
    receiver.reply('/hooks/down', () => ({ status: 502, body: 'bad gateway' }));
    const events = [await newEvent(), await newEvent(), await newEvent(), await newEvent()];
    await drain();

    // Follow the clock to the next attempt of the oldest pending delivery (the later ones wait for
    // it), until the endpoint is disabled.
    for (let step = 0; step < 40; step++) {
      const due = (await deliveries(webhook.id, owner.headers))
        .filter((delivery) => delivery.status === 'pending')
        .at(-1)?.nextAttemptAt;
      const current = await ok('GET', `/v1/webhooks/${webhook.id}`, undefined, owner.headers);
      if (!due || !current.enabled) {
        break;
      }
      harness.clock.set(due);
      await drain();
    }

    const after = await ok('GET', `/v1/webhooks/${webhook.id}`, undefined, owner.headers);
    expect(after).toMatchObject({ enabled: false, disabledReason: 'failing', failingSince: TEST_NOW });
    const disabledAt = Date.parse(after.disabledAt);
    expect(disabledAt - Date.parse(TEST_NOW)).toBeGreaterThanOrEqual(72 * HOUR);

    const byEvent = [...(await deliveries(webhook.id, owner.headers))].reverse();
    expect(byEvent.map((delivery) => delivery.status)).toEqual(['failed', 'failed', 'pending', 'pending']);
    // The first delivery: 8 attempts, the waits between them as the schedule says; the second
    // started when the first gave up.
    const [firstDelivery, secondDelivery, thirdDelivery, fourthDelivery] = byEvent;
    const times = (firstDelivery?.attempts ?? []).map((attempt) => Date.parse(attempt.startedAt));
    expect(times.slice(1).map((at, index) => at - (times[index] ?? 0))).toEqual([...RETRY_DELAYS_MS]);
    expect(secondDelivery?.attempts[0]?.startedAt).toBe(firstDelivery?.attempts.at(-1)?.startedAt);
    expect(firstDelivery?.attempts.every((attempt) => attempt.statusCode === 502 && attempt.error === 'answered 502')).toBe(true);
    expect(thirdDelivery?.attempts.at(-1)?.startedAt).toBe(after.disabledAt);
    expect(fourthDelivery?.attempts).toEqual([]);

    // The owner's email, queued in the transaction that disabled the endpoint.
    const outbox = (await ok('GET', '/v1/outbox')) as { to: string; subject: string; createdAt: string }[];
    const emails = outbox.filter((message) => message.subject.startsWith('Webhook disabled'));
    expect(emails).toEqual([
      expect.objectContaining({
        to: 'owen@acme.test',
        subject: `Webhook disabled: ${receiver.base}/hooks/down`,
        createdAt: after.disabledAt,
      }),
    ]);

    // Disabled: nothing goes, whatever the clock says.
    const sent = receiver.at('/hooks/down').length;
    harness.clock.advance(48 * HOUR);
    await newEvent();
    await drain();
    expect(receiver.at('/hooks/down')).toHaveLength(sent);

    // Back on, with a working receiver: what waited goes, in order, then what happened meanwhile.
    receiver.reply('/hooks/down', () => ({ status: 200 }));
    const resumed = await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: true }, owner.headers);
    expect(resumed).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await drain();
    expect(receiver.at('/hooks/down').slice(sent).map(emailOf)).toEqual([events[2], events[3], `c${contacts}@customer.test`]);
  });

  it('fails an attempt whose receiver does not answer in time', async () => {
    const impatient = workerOn(harness.db, { timeoutMs: 200 });
    try {
      const webhook = await createHook('silent');
      receiver.reply('/hooks/silent', () => 'hold');
      await newEvent();
      await drain(impatient);
      const [delivery] = await deliveries(webhook.id);
      expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: '2026-01-15T09:00:05.000Z' });
      expect(delivery?.attempts).toEqual([expect.objectContaining({ statusCode: null, error: 'no answer within 200 ms' })]);
    } finally {
      await impatient.stop();
    }
  });

  it('prunes finished deliveries older than the retention, keeping those still going', async () => {
    // Its own ids: they carry the time they were made, which pruning goes by.
    const pruner = workerOn(harness.db, {}, createIdFactory(harness.clock));
    try {
      const webhook = await createHook('old');
      await newEvent();
      await drain(pruner);
      receiver.reply('/hooks/old', () => ({ status: 500 }));
      await newEvent();
      await drain(pruner);
      expect((await deliveries(webhook.id)).map((delivery) => delivery.status)).toEqual(['pending', 'delivered']);
      // 30 days on, nothing yet; a day later the delivered one goes, the pending one (its endpoint
      // still failing) stays.
      harness.clock.advance(30 * 24 * HOUR - 1);
      await drain(pruner);
      expect(await deliveries(webhook.id)).toHaveLength(2);
      harness.clock.advance(24 * HOUR);
      await drain(pruner);
      expect((await deliveries(webhook.id)).map((delivery) => delivery.status)).toEqual(['pending']);
    } finally {
      await pruner.stop();
    }
  });

  it('takes WEBHOOK_POLL_MS from the environment', async () => {
    const { testConfig } = await import('../../../test/harness.js');
    expect(testConfig().WEBHOOK_POLL_MS).toBe(1000);
    expect(testConfig({ WEBHOOK_POLL_MS: '250' }).WEBHOOK_POLL_MS).toBe(250);
    expect(() => testConfig({ WEBHOOK_POLL_MS: '5' })).toThrow(/WEBHOOK_POLL_MS/);
  });

  it('delivers each event once per endpoint with two workers (two processes on PostgreSQL) running passes at once', async () => {
    const second =
      dialect === 'postgres' && harness.url ? connectPostgres(harness.url, 5) : { db: harness.db, close: async () => undefined };
    const other = workerOn(second.db, { concurrency: 3 }, createIdFactory(harness.clock));
    const mine = workerOn(harness.db, { concurrency: 3 });
    try {
      const org = await makeOrganization(harness, { name: 'Busy' });
      const hooks = [];
      for (let i = 1; i <= 4; i++) {
        hooks.push(await createHook(`busy-${i}`, org.headers));
      }
      const emails: string[] = [];
      for (let i = 0; i < 10; i++) {
        emails.push(await newEvent(org.headers));
      }
      for (let round = 0; round < 60; round++) {
        const done = await Promise.all([mine.runOnce(), other.runOnce()]);
        if (done.every((count) => count === 0)) {
          break;
        }
      }
      for (const [index, webhook] of hooks.entries()) {
        const got = receiver.at(`/hooks/busy-${index + 1}`);
        // Each event once, in order, every request verified.
        expect(got.map(emailOf)).toEqual(emails);
        expect(got.every((entry) => entry.verifiedBy.length === 1)).toBe(true);
        const rows = await deliveries(webhook.id, org.headers);
        expect(rows).toHaveLength(emails.length);
        expect(rows.every((row) => row.status === 'delivered' && row.attempts.length === 1)).toBe(true);
      }
    } finally {
      await mine.stop();
      await other.stop();
      await second.close();
    }
  });
});
