import { pino } from 'pino';
import { expect } from 'vitest';
import { createMetrics } from '../src/lib/metrics.js';
import { createTicketSlaWorker } from '../src/platform/ticket-sla/ticket-sla.worker.js';
import type { TestApp } from './harness.js';

/**
 * A ticket whose first reply is warned of and then breached, announced by the SLA worker as the
 * test's clock passes them (a policy in calendar time, removed afterwards; the clock left where it
 * was). For tests that need an `sla.warning` and an `sla.breached` among other events.
 */
export async function breachTicketBySlaWorker(
  harness: TestApp,
  headers: Record<string, string>,
  teamId: string,
): Promise<{ ticketId: string }> {
  const inject = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? null : response.json().data;
  };
  const policy = await inject('POST', '/v1/sla-policies', {
    name: 'First reply within the hour',
    businessHours: false,
    targets: { high: { firstReply: 60 } },
  });
  const ticket = await inject('POST', '/v1/tickets', {
    title: 'Waiting for an answer',
    requestorEmail: 'waiting@customer.test',
    teamId,
    priorityName: 'High',
  });
  const worker = createTicketSlaWorker({
    ...{ db: harness.db, clock: harness.clock, ids: harness.ids, config: harness.config, secretKey: harness.secretKey },
    log: pino({ level: 'silent' }),
    metrics: createMetrics(),
  });
  const started = harness.clock.now().toISOString();
  harness.clock.advance(45 * 60_000);
  await worker.runOnce();
  harness.clock.advance(15 * 60_000);
  await worker.runOnce();
  await worker.stop();
  harness.clock.set(started);
  await inject('DELETE', `/v1/sla-policies/${policy.id}`);
  return { ticketId: ticket.id };
}
