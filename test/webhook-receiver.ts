import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { DB } from '../src/db/database.js';
import type { Clock } from '../src/lib/clock.js';
import type { IdFactory } from '../src/lib/ids.js';
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../src/platform/webhooks/webhook.worker.js';
import type { TestApp } from './harness.js';

/** A request as the receiver got it, and which of the secrets it trusts verified it. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed (an event as GET /v1/events shows it, or a test event). */
  event: { id: string | null; type: string; data: Record<string, unknown> } & Record<string, unknown>;
  /** Names of the trusted secrets whose Standard Webhooks verification passed. */
  verifiedBy: string[];
}

export interface Reply {
  status: number;
  /** Bytes for an answer that is not UTF-8. */
  body?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A webhook receiver on loopback, as any integration would run one: it verifies every request with
 * the Standard Webhooks library against the secrets it trusts for the path, keeps what it got, and
 * answers as the test says (200 by default; `hold` never answers). Verification checks the
 * timestamp against the receiver's clock: the test's fixed clock, as the server's.
 */
export async function startWebhookReceiver(clock: Clock) {
  const received: ReceivedWebhook[] = [];
  const trusted = new Map<string, Record<string, string>>();
  const replies = new Map<string, (request: ReceivedWebhook) => Reply | 'hold'>();
  const held: (() => void)[] = [];

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const secrets = trusted.get(path) ?? {};
      const entry: ReceivedWebhook = {
        path,
        headers: request.headers,
        body,
        event: body ? JSON.parse(body) : null,
        verifiedBy: Object.entries(secrets)
          .filter(([, secret]) => verifies(secret, body, request.headers, clock.now()))
          .map(([name]) => name),
      };
      received.push(entry);
      const reply = replies.get(path)?.(entry) ?? { status: 200, body: 'ok' };
      if (reply === 'hold') {
        held.push(() => response.destroy());
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    received,
    /** What arrived at `path`, in order. */
    at: (path: string) => received.filter((entry) => entry.path === path),
    /** Secrets, by name, that requests to `path` are verified with. */
    trust(path: string, secrets: Record<string, string>) {
      trusted.set(path, { ...trusted.get(path), ...secrets });
    },
    reply(path: string, answer: (request: ReceivedWebhook) => Reply | 'hold') {
      replies.set(path, answer);
    },
    reset() {
      received.length = 0;
      trusted.clear();
      replies.clear();
      for (const release of held.splice(0)) {
        release();
      }
    },
    async close() {
      for (const release of held.splice(0)) {
        release();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** `Webhook.verify` as a receiver whose clock reads `at` would run it. */
function verifies(secret: string, body: string, headers: IncomingHttpHeaders, at: Date): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(headers['webhook-signature'] ?? ''),
    });
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

/**
 * The webhook worker of a test app: on its database (or another pool of it, as a second process),
 * its clock and its key, logging nothing.
 */
export function webhookWorkerOf(
  harness: Pick<TestApp, 'db' | 'clock' | 'ids' | 'config' | 'secretKey'>,
  options: { db?: Kysely<DB>; ids?: IdFactory; worker?: WebhookWorkerOptions } = {},
): WebhookWorker {
  return createWebhookWorker(
    {
      db: options.db ?? harness.db,
      clock: harness.clock,
      ids: options.ids ?? harness.ids,
      config: harness.config,
      secretKey: harness.secretKey,
      log: pino({ level: 'silent' }),
    },
    options.worker,
  );
}
