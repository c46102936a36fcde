import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, createTestDatabase, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList, idsInOrder, walkPages } from '../../../test/platform-list-pages.js';
import { type ReceivedMail, startRefusingSmtp, startSmtp } from '../../../test/smtp.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../../db/connect.js';
import { fixedClock } from '../../lib/clock.js';
import { createIdFactory } from '../../lib/ids.js';
import { claimDueMessages } from './outbox.repository.js';
import { enqueueEmail } from './outbox.service.js';
import { createOutboxWorker, NO_SMTP_URL, type OutboxWorker, type OutboxWorkerOptions } from './outbox.worker.js';

type Smtp = Awaited<ReturnType<typeof startSmtp>>;
const silent = pino({ level: 'silent' });

describe.each(DIALECTS)('email outbox on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let smtp: Smtp;
  const workers: OutboxWorker[] = [];
  let sequence = 0;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    smtp = await startSmtp();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });
  afterAll(async () => {
    await smtp.close();
    await harness.close();
  });

  const worker = (smtpUrl: string | undefined, options: OutboxWorkerOptions = {}) => {
    const created = createOutboxWorker(
      { db: harness.db, clock: harness.clock, config: { ...harness.config, SMTP_URL: smtpUrl }, log: silent },
      options,
    );
    workers.push(created);
    return created;
  };
  const enqueue = (overrides: { dedupeKey?: string; organizationId?: string; subject?: string } = {}) =>
    enqueueEmail(harness.db, harness, {
      organizationId: overrides.organizationId ?? acme.organizationId,
      dedupeKey: overrides.dedupeKey ?? `test:${dialect}:${++sequence}`,
      to: 'customer@example.com',
      subject: overrides.subject ?? `Re: Printer on fire #${sequence}`,
      text: 'We are on it.\nThe support team',
      html: '<p>We are on it.</p>',
    });
  const row = (id: string) => harness.db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('delivers a queued message exactly once, with a Message-ID derived from its id', async () => {
    const before = smtp.messages.length;
    const { id, created } = await enqueue({ subject: 'Re: Printer on fire' });
    expect(created).toBe(true);
    const sender = worker(smtp.url);
    expect(await sender.runOnce()).toBe(1);
    expect(await sender.runOnce()).toBe(0);

    const received = smtp.messages.slice(before);
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.to).toEqual(['customer@example.com']);
    expect(message?.from).toBe('support@switchboard.local');
    expect(message?.raw).toMatch(/^To: customer@example\.com$/m);
    expect(message?.raw).toMatch(/^Subject: Re: Printer on fire$/m);
    expect(message?.raw).toMatch(new RegExp(`^Message-ID: <${id}@switchboard\\.local>$`, 'mi'));
    expect(message?.raw).toContain('We are on it.');
    expect(message?.raw).toContain('<p>We are on it.</p>');
    expect(await row(id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      sent_at: TEST_NOW,
      message_id: `<${id}@switchboard.local>`,
      locked_until: null,
      next_attempt_at: null,
      last_error: null,
    });
  });

  it('retries with backoff while the SMTP server is down, then delivers once', async () => {
    const down = await startSmtp();
    await down.close();
    const { id } = await enqueue();
    const sender = worker(down.url);
    const attemptedAt = harness.clock.now().getTime();
    expect(await sender.runOnce()).toBe(1);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sent_at: null, locked_until: null });
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.next_attempt_at).toBe(new Date(attemptedAt + 5_000).toISOString());

    const up = await startSmtp(down.port);
    try {
      expect(await sender.runOnce()).toBe(0); // not due yet
      harness.clock.advance(5_000);
      expect(await sender.runOnce()).toBe(1);
      expect(await sender.runOnce()).toBe(0);
      expect(up.messages).toHaveLength(1);
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, sent_at: harness.clock.now().toISOString() });
    } finally {
      await up.close();
    }
  });

  it('gives up as undeliverable after the last attempt, and at once on a permanent rejection', async () => {
    const down = await startSmtp();
    await down.close();
    const { id } = await enqueue();
    const sender = worker(down.url, { maxAttempts: 2 });
    expect(await sender.runOnce()).toBe(1);
    harness.clock.advance(5_000);
    expect(await sender.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'undeliverable', attempts: 2, next_attempt_at: null });

    const rejecting = await startSmtp(0, { rejectRecipients: true });
    try {
      const rejected = await enqueue();
      expect(await worker(rejecting.url).runOnce()).toBe(1);
      const stored = await row(rejected.id);
      expect(stored).toMatchObject({ status: 'undeliverable', attempts: 1, next_attempt_at: null });
      expect(stored.last_error).toContain('550');
    } finally {
      await rejecting.close();
    }
  });

  it('gives up as undeliverable after the last attempt when the SMTP peer keeps answering NUL bytes and invalid UTF-8', async () => {
    const reply = Buffer.concat([
      Buffer.from('451 4.3.0 busy'),
      Buffer.from([0x00, 0xff, 0xed, 0xa0, 0x80, 0x00]),
      Buffer.from(' later'),
    ]);
    const refusing = await startRefusingSmtp(reply);
    try {
      const { id } = await enqueue();
      const sender = worker(refusing.url, { maxAttempts: 3 });
      expect(await sender.runOnce()).toBe(1);
      expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1 });
      harness.clock.advance(5_000);
      expect(await sender.runOnce()).toBe(1);
      harness.clock.advance(10_000);
      expect(await sender.runOnce()).toBe(1);
      const stored = await row(id);
      expect(stored).toMatchObject({ status: 'undeliverable', attempts: 3, next_attempt_at: null, locked_until: null });
      expect(stored.last_error).toContain('451 4.3.0 busy');
      expect(stored.last_error).toContain(' later');
      expect(stored.last_error).not.toContain(String.fromCharCode(0));
      // Nothing more is tried, however long the worker keeps going.
      harness.clock.advance(24 * 3_600_000);
      expect(await sender.runOnce()).toBe(0);
      expect(refusing.refusals()).toBe(3);
    } finally {
      await refusing.close();
    }
  });

  it('does not send again a message whose worker stopped during its last attempt: undeliverable, saying so', async () => {
    const { id } = await enqueue();
    for (let attempt = 0; attempt < 2; attempt++) {
      const now = harness.clock.now().getTime();
      // A worker claims it and is never heard of again.
      const lockedUntil = new Date(now + 60_000).toISOString();
      const claimed = await claimDueMessages(harness.db, {
        now: new Date(now).toISOString(),
        lockedUntil,
        limit: 1,
        maxAttempts: 2,
      });
      expect(claimed.map((message) => message.id)).toEqual([id]);
      harness.clock.advance(60_000);
    }
    const before = smtp.messages.length;
    expect(await worker(smtp.url, { maxAttempts: 2 }).runOnce()).toBe(0);
    expect(smtp.messages).toHaveLength(before);
    const stored = await row(id);
    expect(stored).toMatchObject({ status: 'undeliverable', attempts: 2, locked_until: null, next_attempt_at: null });
    expect(stored.last_error).toMatch(/^The last attempt ended with no outcome recorded/);
  });

  it('takes over a message whose worker died mid-send once its lease has run out', async () => {
    const { id } = await enqueue();
    const now = harness.clock.now().getTime();
    // A worker claims it and is never heard of again.
    const [claimed] = await claimDueMessages(harness.db, {
      now: new Date(now).toISOString(),
      lockedUntil: new Date(now + 60_000).toISOString(),
      limit: 1,
      maxAttempts: 8,
    });
    expect(claimed?.id).toBe(id);
    const before = smtp.messages.length;
    const sender = worker(smtp.url, { leaseMs: 60_000 });
    expect(await sender.runOnce()).toBe(0);
    harness.clock.advance(60_000);
    expect(await sender.runOnce()).toBe(1);
    expect(smtp.messages.length - before).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('queues one message per dedupe key, also when enqueued concurrently', async () => {
    const dedupeKey = `comment:${dialect}:dedupe`;
    const first = await enqueue({ dedupeKey });
    const again = await enqueue({ dedupeKey, subject: 'A different subject' });
    expect(again).toEqual({ id: first.id, created: false });
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () =>
        harness.db.transaction().execute((trx) =>
          enqueueEmail(trx, harness, {
            organizationId: acme.organizationId,
            dedupeKey: `comment:${dialect}:concurrent`,
            to: 'customer@example.com',
            subject: 'Hello',
            text: 'Hi',
          }),
        ),
      ),
    );
    expect(concurrent.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(concurrent.map((result) => result.id)).size).toBe(1);
    const rows = await harness.db
      .selectFrom('email_outbox')
      .select('id')
      .where('dedupe_key', 'in', [dedupeKey, `comment:${dialect}:concurrent`])
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('without SMTP_URL marks messages undeliverable, listed at GET /v1/outbox for admins only', async () => {
    const { id } = await enqueue({ dedupeKey: `comment:${dialect}:no-smtp`, subject: 'Nobody will read this' });
    await enqueue({ organizationId: globex.organizationId });
    expect(await worker(undefined).runOnce()).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({ status: 'undeliverable', attempts: 1, last_error: NO_SMTP_URL });

    const response = await harness.app.inject({ url: '/v1/outbox?status=undeliverable', headers: acme.headers });
    expect(response.statusCode).toBe(200);
    const items = response.json().data as { id: string }[];
    expect(items.find((item) => item.id === id)).toEqual({
      id,
      to: 'customer@example.com',
      subject: 'Nobody will read this',
      status: 'undeliverable',
      attempts: 1,
      lastError: NO_SMTP_URL,
      nextAttemptAt: null,
      sentAt: null,
      messageId: null,
      createdAt: expect.any(String),
      dedupeKey: `comment:${dialect}:no-smtp`,
    });

    const all = (await harness.app.inject({ url: '/v1/outbox?limit=100', headers: acme.headers })).json().data as {
      id: string;
      createdAt: string;
    }[];
    const orderKeys = all.map((item) => `${item.createdAt}|${item.id}`);
    expect(orderKeys).toEqual([...orderKeys].sort().reverse());
    const paged = (await harness.app.inject({ url: '/v1/outbox?page=1&limit=1', headers: acme.headers })).json().data;
    expect(paged).toEqual([all[1]]);
    const foreign = (await harness.app.inject({ url: '/v1/outbox?limit=100', headers: globex.headers })).json().data as {
      id: string;
    }[];
    expect(foreign.map((item) => item.id)).not.toContain(id);

    const member = await makeUser(harness, acme.organizationId);
    const forbidden = await harness.app.inject({ url: '/v1/outbox', headers: member.headers });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    const bad = await harness.app.inject({ url: '/v1/outbox?status=lost', headers: acme.headers });
    expect(bad.statusCode).toBe(400);
  });

  const retry = (id: string, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `/v1/outbox/${id}/retry`, headers });
  const deliveredIds = (messages: ReceivedMail[]) => messages.map((message) => /^Message-ID: <([^@]+)@/im.exec(message.raw)?.[1]);

  it('an admin retries an undeliverable message: queued again at once with fresh attempts, then delivered', async () => {
    const dedupeKey = `comment:${dialect}:retry`;
    const { id } = await enqueue({ dedupeKey, subject: 'Second chance' });
    expect(await worker(undefined).runOnce()).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({ status: 'undeliverable', attempts: 1, last_error: NO_SMTP_URL });
    const createdAt = (await row(id)).created_at;

    harness.clock.advance(60_000);
    const retriedAt = harness.clock.now().toISOString();
    const response = await retry(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      message: 'Success',
      timestamp: retriedAt,
      data: {
        id,
        to: 'customer@example.com',
        subject: 'Second chance',
        status: 'pending',
        attempts: 0,
        lastError: null,
        nextAttemptAt: retriedAt,
        sentAt: null,
        messageId: null,
        createdAt,
        dedupeKey,
      },
    });
    // Queued already: a second retry has nothing to do.
    const again = await retry(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      statusCode: 409,
      message: 'Only failed or undeliverable messages can be retried; this message is pending',
      error: 'Conflict',
    });

    const before = smtp.messages.length;
    expect(await worker(smtp.url).runOnce()).toBeGreaterThanOrEqual(1);
    expect(deliveredIds(smtp.messages.slice(before)).filter((delivered) => delivered === id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, sent_at: retriedAt, last_error: null });
    const sent = await retry(id);
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toBe('Only failed or undeliverable messages can be retried; this message is sent');
  });

  it('a failed message can be retried before its backoff runs out; concurrent retries queue it once', async () => {
    const down = await startSmtp();
    await down.close();
    const { id } = await enqueue();
    expect(await worker(down.url).runOnce()).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1 });

    const responses = await Promise.all(Array.from({ length: 5 }, () => retry(id)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: harness.clock.now().toISOString() });
  });

  it('retry is for admins of the organization only, and checks the id', async () => {
    const { id } = await enqueue({ subject: 'Not yours' });
    expect(await worker(undefined).runOnce()).toBeGreaterThanOrEqual(1);

    const member = await makeUser(harness, acme.organizationId);
    const forbidden = await retry(id, member.headers);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    for (const [outboxId, headers] of [
      [id, globex.headers],
      ['01KAAAAAAAAAAAAAAAAAAAAAAA', acme.headers],
    ] as const) {
      const missing = await retry(outboxId, headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ statusCode: 404, message: 'Outbox message not found!', error: 'Not Found' });
    }
    const malformed = await retry('not-an-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ statusCode: 400, message: 'id has an invalid format', error: 'Bad Request' });
    // Nobody but the admin of its organization changed it.
    expect(await row(id)).toMatchObject({ status: 'undeliverable', attempts: 1 });
  });
});

describe.each(DIALECTS)('email outbox with two workers on separate connections on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let second: DatabaseHandle;
  let smtp: Smtp;
  const clock = fixedClock(TEST_NOW);
  const ids = createIdFactory(clock);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    second =
      dialect === 'postgres' && database.url
        ? connectPostgres(database.url, 5)
        : connectSqlite(join(database.dataDir ?? '', 'switchboard.db'));
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
    await second.close();
    await database.drop();
  });

  it('delivers every message exactly once when both run at the same time', async () => {
    const organization = await makeOrganization({ db: database.db, clock, ids });
    const config = { SMTP_URL: smtp.url, SMTP_FROM: 'Support <help@acme.test>', OUTBOX_POLL_MS: 1000 };
    const workers = [database.db, second.db].map((db) =>
      createOutboxWorker({ db, clock, config, log: silent }, { batchSize: 50 }),
    );
    try {
      for (const round of [1, 2, 3]) {
        const queued = await Promise.all(
          Array.from({ length: round === 1 ? 1 : 8 }, (_, index) =>
            enqueueEmail(
              database.db,
              { clock, ids },
              {
                organizationId: organization.organizationId,
                dedupeKey: `race:${round}:${index}`,
                to: `customer${index}@example.com`,
                subject: `Round ${round} message ${index}`,
                text: 'Hello',
              },
            ),
          ),
        );
        const before = smtp.messages.length;
        const claimed = await Promise.all(workers.map((worker) => worker.runOnce()));
        expect(claimed.reduce((sum, count) => sum + count, 0)).toBe(queued.length);
        const received = smtp.messages.slice(before);
        expect(received).toHaveLength(queued.length);
        const messageIds = received.map((message) => /^Message-ID: (.+)$/im.exec(message.raw)?.[1]?.trim());
        expect(new Set(messageIds)).toEqual(new Set(queued.map((message) => `<${message.id}@acme.test>`)));
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });
});

describe.each(DIALECTS)('outbox list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const queue = async (organizationId: string, key: string, status: 'failed' | 'pending') => {
    const { id } = await enqueueEmail(harness.db, harness, {
      organizationId,
      dedupeKey: key,
      to: 'pat@customer.test',
      subject: key,
      text: 'Hello',
    });
    await harness.db.updateTable('email_outbox').set({ status }).where('id', '=', id).execute();
    return { id, at: harness.clock.now().toISOString() };
  };

  it('pages one status newest first by cursor or by page, each message once, never another organization’s', async () => {
    const failed: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      failed.push(await queue(acme.organizationId, `pages:failed:${n}`, 'failed'));
      await queue(acme.organizationId, `pages:pending:${n}`, 'pending');
    }
    const foreign = [await queue(globex.organizationId, 'pages:globex', 'failed')];

    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/outbox?status=failed&limit=10',
      headers: acme.headers,
      read: envelopePage,
      expected: idsInOrder(failed, 'desc'),
      pageNumbers: true,
      other: { url: '/v1/outbox?status=failed&limit=10', headers: globex.headers, ids: foreign.map((row) => row.id) },
    });
    const everything = (await walkPages(harness.app, '/v1/outbox?limit=10', acme.headers, envelopePage)).flat();
    expect(everything).toHaveLength(50);
  });
});
