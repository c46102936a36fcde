import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { refuseWrites } from '../../../test/refusing-trigger.js';
import { startWebhookReceiver, type WebhookReceiver, webhookWorkerOf } from '../../../test/webhook-receiver.js';
import { DELIVERY_LEASE_MS, MAX_UNRECORDED_ATTEMPTS } from './webhook.delivery.js';
import { dispatchEvents } from './webhook.dispatcher.js';
import { claimDueDeliveries } from './webhook.repository.js';
import type { WebhookWorker } from './webhook.worker.js';

const SECRET_KEY = 'c4'.repeat(32);
const HOUR = 3_600_000;

interface Attempt {
  startedAt: string;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
}
interface Delivery {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

/**
 * Nothing from outside stalls an endpoint's queue: what a receiver answers is stored whatever its
 * bytes, an attempt the database will not record counts as failed, a delivery whose attempts keep
 * ending unrecorded is given up; and a disabled owner's webhooks are paused.
 */
describe.each(DIALECTS)('webhook queue on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let receiver: WebhookReceiver;
  let worker: WebhookWorker;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', SECRET_KEY } });
    acme = await makeOrganization(harness, { name: 'Acme' });
    receiver = await startWebhookReceiver(harness.clock);
    worker = webhookWorkerOf(harness);
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

  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: object = acme.headers) {
    const response = await harness.app.inject({ method, url, headers: headers as Record<string, string>, payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json().data;
  }
  async function createHook(name: string, headers: object = acme.headers): Promise<{ id: string }> {
    const url = `${receiver.base}/hooks/${name}`;
    const webhook = await ok('POST', '/v1/webhooks', { url, eventTypes: ['contact.created'] }, headers);
    receiver.trust(`/hooks/${name}`, { secret: webhook.secret });
    return webhook;
  }
  let contacts = 0;
  /** A contact.created event; answers its contact's email. */
  async function newEvent(): Promise<string> {
    const email = `q${++contacts}@customer.test`;
    await ok('POST', '/v1/accounts/contacts', { firstName: 'Q', email });
    return email;
  }
  const emailsAt = (name: string) => receiver.at(`/hooks/${name}`).map((entry) => entry.event.data.email as string);
  async function drain(): Promise<void> {
    for (let pass = 0; pass < 50; pass++) {
      if ((await worker.runOnce()) === 0) {
        return;
      }
    }
    throw new Error('the worker never ran out of work');
  }
  /** The endpoint's deliveries, oldest event first. */
  const deliveries = async (webhookId: string): Promise<Delivery[]> =>
    [...(await ok('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`))].reverse();

  it('stores answers with NUL bytes and invalid UTF-8 as the databases take them, and the next events go', async () => {
    const webhook = await createHook('binary');
    let answers = 0;
    receiver.reply('/hooks/binary', () => {
      answers++;
      // NUL bytes, a byte no UTF-8 has, a surrogate encoded as UTF-8 would (CESU-8), a cut sequence.
      const bytes = Buffer.concat([Buffer.from('busy'), Buffer.from([0x00, 0xff, 0xed, 0xa0, 0x80, 0x00, 0xc3])]);
      return answers === 1 ? { status: 503, body: bytes } : { status: 200, body: Buffer.from([0x6f, 0x6b, 0x00, 0x00]) };
    });
    const first = await newEvent();
    const second = await newEvent();
    await drain();
    const [retried] = await deliveries(webhook.id);
    expect(retried).toMatchObject({ status: 'pending', nextAttemptAt: '2026-01-15T09:00:05.000Z' });
    expect(retried?.attempts).toHaveLength(1);
    const body = retried?.attempts[0]?.responseBody ?? '';
    expect(body.startsWith('busy')).toBe(true);
    expect(body).not.toContain(String.fromCharCode(0));
    expect(body).toContain('\uFFFD');
    expect(retried?.attempts[0]).toMatchObject({ statusCode: 503, error: 'answered 503' });

    harness.clock.advance(5_000);
    await drain();
    expect(emailsAt('binary')).toEqual([first, first, second]);
    const done = await deliveries(webhook.id);
    expect(done.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered']);
    expect(done.map((delivery) => delivery.attempts.at(-1)?.responseBody)).toEqual(['ok', 'ok']);
    expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBeNull();
  });

  it('counts an attempt the database refuses to record as failed: the endpoint is failing, the delivery retried, the next events go', async () => {
    // A database refusing any attempt whose answer says "refuse-me" (as PostgreSQL refused a NUL).
    const undo = await refuseWrites(harness.db, 'webhook_delivery_attempts', "new.response_body like '%refuse-me%'");
    try {
      const webhook = await createHook('refused');
      let answers = 0;
      receiver.reply('/hooks/refused', () => ({ status: 200, body: ++answers === 1 ? 'refuse-me' : 'fine' }));
      const first = await newEvent();
      const second = await newEvent();
      await drain();
      const [refused, waiting] = await deliveries(webhook.id);
      expect(refused).toMatchObject({ status: 'pending', nextAttemptAt: '2026-01-15T09:00:05.000Z' });
      expect(refused?.attempts).toEqual([
        expect.objectContaining({
          statusCode: 200,
          responseBody: null,
          error: expect.stringMatching(/^counted as failed: the attempt could not be recorded \(.*the database refuses this row/),
        }),
      ]);
      expect(waiting).toMatchObject({ status: 'pending', nextAttemptAt: null });
      expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBe(TEST_NOW);

      harness.clock.advance(5_000);
      await drain();
      expect(emailsAt('refused')).toEqual([first, first, second]);
      expect((await deliveries(webhook.id)).map((delivery) => delivery.status)).toEqual(['delivered', 'delivered']);
      expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBeNull();
    } finally {
      await undo();
    }
  });

  it(`gives up a delivery claimed ${MAX_UNRECORDED_ATTEMPTS} times with nothing recorded, without sending it again, and sends the next`, async () => {
    const webhook = await createHook('crashing');
    await newEvent();
    const second = await newEvent();
    await dispatchEvents(harness);
    // Workers claim the first delivery and die before recording anything, lease after lease.
    for (let claim = 0; claim < MAX_UNRECORDED_ATTEMPTS; claim++) {
      const now = harness.clock.now();
      const claimed = await claimDueDeliveries(harness.db, {
        now: now.toISOString(),
        lockedUntil: new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString(),
        limit: 10,
      });
      expect(claimed).toHaveLength(1);
      harness.clock.advance(DELIVERY_LEASE_MS);
    }
    await drain();
    expect(emailsAt('crashing')).toEqual([second]);
    const [givenUp, next] = await deliveries(webhook.id);
    expect(givenUp).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(givenUp?.attempts).toEqual([
      expect.objectContaining({
        statusCode: null,
        error: expect.stringMatching(/^not sent again: 3 of its attempts ended with nothing recorded/),
      }),
    ]);
    expect(next?.status).toBe('delivered');
  });

  it('pauses the webhooks of a disabled owner (nothing dispatched, nothing queued sent) and resumes them in order when enabled', async () => {
    const owner = await makeUser(harness, acme.organizationId, { name: 'Olga', userType: 'ORG_ADMIN' });
    const webhook = await createHook('owned', owner.headers);
    let answers = 0;
    receiver.reply('/hooks/owned', () => ({ status: ++answers === 1 ? 500 : 200 }));
    const queued = await newEvent();
    await drain();
    expect(emailsAt('owned')).toEqual([queued]);

    await ok('PATCH', `/v1/users/${owner.userId}`, { disabled: true });
    const meanwhile = [await newEvent(), await newEvent()];
    for (const step of [5_000, HOUR, 24 * HOUR]) {
      harness.clock.advance(step);
      await drain();
    }
    // Not the retry that was due, nor the events since, which wait undispatched.
    expect(emailsAt('owned')).toEqual([queued]);
    expect((await deliveries(webhook.id)).map((delivery) => delivery.status)).toEqual(['pending']);

    await ok('PATCH', `/v1/users/${owner.userId}`, { disabled: false });
    await drain();
    expect(emailsAt('owned')).toEqual([queued, queued, ...meanwhile]);
    expect(receiver.at('/hooks/owned').every((entry) => entry.verifiedBy.length === 1)).toBe(true);
    expect((await deliveries(webhook.id)).map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });
});
