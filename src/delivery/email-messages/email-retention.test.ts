import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { composeMail, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from '../../../test/inbound.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../channels/email/smtp-receiver.js';
import { connectPostgres } from '../../db/connect.js';
import { createEmailRetentionWorker } from './email-retention.worker.js';

const DAY_MS = 86_400_000;
const RETENTION_DAYS = 30;

describe.each(DIALECTS)('EMAIL_RETENTION_DAYS on %s', (dialect) => {
  const data = inboundEnv({ EMAIL_RETENTION_DAYS: String(RETENTION_DAYS) });
  let harness: TestApp;
  let receiver: SmtpReceiver;
  let acme: TestOrganization;
  let sequence = 0;
  const address = `support-${dialect}@acme.test`;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness);
    const team = await makeTeam(harness, acme);
    await makeVerifiedMailbox(harness, acme, { address, teamId: team.teamId });
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
    data.cleanup();
  });

  const worker = (db = harness.db, batchSize?: number) =>
    createEmailRetentionWorker(
      { db, clock: harness.clock, config: { EMAIL_RETENTION_DAYS: RETENTION_DAYS }, log: pino({ level: 'silent' }) },
      { batchSize },
    );
  /** A customer's email: its ticket's id and its email's. */
  const customerWrites = async (subject: string) => {
    const messageId = `retention-${++sequence}-${dialect}@customer.test`;
    const raw = await composeMail({
      from: 'jane@customer.test',
      to: address,
      subject,
      text: 'Hello',
      messageId: `<${messageId}>`,
    });
    expect((await sendRaw(receiver.port, { from: 'jane@customer.test', to: [address] }, raw)).data?.code).toBe(250);
    const row = await harness.db
      .selectFrom('email_messages')
      .select(['id', 'ticket_id'])
      .where('message_id', '=', messageId)
      .executeTakeFirstOrThrow();
    return { ticketId: row.ticket_id ?? '', emailId: row.id };
  };
  const setStatus = async (ticketId: string, statusName: string) => {
    const response = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticketId}`,
      headers: acme.headers,
      payload: { statusName },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const original = (ticketId: string, emailId: string) =>
    harness.app.inject({ url: `/v1/tickets/${ticketId}/emails/${emailId}/raw`, headers: acme.headers });

  it("deletes the originals of closed tickets' emails past the retention, and keeps those of open tickets", async () => {
    const closedLongAgo = await customerWrites('Closed long ago');
    const open = await customerWrites('Still open');
    const reopened = await customerWrites('Closed, then reopened');
    await setStatus(closedLongAgo.ticketId, 'closed');
    await setStatus(reopened.ticketId, 'closed');
    await setStatus(reopened.ticketId, 'open');
    harness.clock.advance(10 * DAY_MS);
    const closedLately = await customerWrites('Closed lately');
    harness.clock.advance(15 * DAY_MS);
    await setStatus(closedLately.ticketId, 'closed');
    // 31 days after the first three were written and the first closed; 6 after the last was closed.
    harness.clock.advance(6 * DAY_MS);

    expect(await worker().runOnce()).toBe(1);
    expect(await worker().runOnce()).toBe(0);
    const gone = await original(closedLongAgo.ticketId, closedLongAgo.emailId);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('The original of this email is not kept');
    const [listed] = (
      await harness.app.inject({ url: `/v1/tickets/${closedLongAgo.ticketId}/emails`, headers: acme.headers })
    ).json().data;
    expect(listed).toMatchObject({ hasRaw: false, subject: 'Closed long ago', size: expect.any(Number) });
    expect(listed.size).toBeGreaterThan(0);
    expect(listed.headers).toContainEqual({ name: 'Subject', value: 'Closed long ago' });
    // The comment it became stays.
    const ticket = (await harness.app.inject({ url: `/v1/tickets/${closedLongAgo.ticketId}`, headers: acme.headers })).json()
      .data;
    expect(ticket.description).toBe('Hello');
    for (const kept of [open, reopened, closedLately]) {
      const response = await original(kept.ticketId, kept.emailId);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Subject:');
    }

    // Once the last was closed for the retention too, it goes.
    harness.clock.advance(25 * DAY_MS);
    expect(await worker().runOnce()).toBe(1);
    expect((await original(closedLately.ticketId, closedLately.emailId)).statusCode).toBe(404);
    expect((await original(open.ticketId, open.emailId)).statusCode).toBe(200);
  });

  it('prunes each original once when several processes run the job at the same time', async () => {
    const tickets = [];
    for (let index = 0; index < 12; index++) {
      tickets.push(await customerWrites(`Batch ${index}`));
    }
    for (const { ticketId } of tickets) {
      await setStatus(ticketId, 'closed');
    }
    harness.clock.advance((RETENTION_DAYS + 1) * DAY_MS);
    const second = dialect === 'postgres' ? connectPostgres(harness.url ?? '', 5) : null;
    try {
      const workers = [worker(harness.db, 3), worker(second?.db ?? harness.db, 3)];
      let pruned = 0;
      for (let round = 0; round < 10; round++) {
        const counts = await Promise.all(workers.map((each) => each.runOnce()));
        pruned += counts.reduce((sum, count) => sum + count, 0);
      }
      expect(pruned).toBe(12);
      const left = await harness.db
        .selectFrom('email_messages')
        .select('id')
        .where(
          'id',
          'in',
          tickets.map((ticket) => ticket.emailId),
        )
        .where('raw', 'is not', null)
        .execute();
      expect(left).toEqual([]);
    } finally {
      await second?.close();
    }
  });
});
