import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { encodeTime } from 'ulid';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { leaseUntil } from '../../db/job-queue.js';
import type { Clock } from '../../lib/clock.js';
import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import type { IdFactory } from '../../lib/ids.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { attemptDelivery, DELIVERY_LEASE_MS, type DeliveryDeps } from './webhook.delivery.js';
import { dispatchEvents } from './webhook.dispatcher.js';
import { claimDueDeliveries, deleteFinishedDeliveriesBefore, findSendTargets } from './webhook.repository.js';
import { createWebhookSender } from './webhook.sender.js';

export interface WebhookWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Pick<Config, 'WEBHOOK_POLL_MS' | 'OUTBOUND_ALLOWED_HOSTS' | 'EVENT_RETENTION_DAYS'>;
  /** The key sealing the signing secrets (`SECRET_KEY`). */
  secretKey: Buffer;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export interface WebhookWorkerOptions {
  /** Deliveries sent side by side; per endpoint at most one in order is ever due. */
  concurrency?: number;
  /** Most deliveries one pass sends. */
  maxDeliveriesPerPass?: number;
  /** How long a receiver gets (10 s). */
  timeoutMs?: number;
}

export interface WebhookWorker {
  /** Polls every `WEBHOOK_POLL_MS` (at once again after a pass that did something) until `stop()`. */
  start(): void;
  /** Stops polling, waits for a pass in progress and closes the connections. */
  stop(): Promise<void>;
  /** One pass: dispatches new events, sends due deliveries, prunes old ones; resolves to how much it did. */
  runOnce(): Promise<number>;
}

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 500;

/**
 * The webhook worker, one in every process. Safe with any number of them: endpoints are dispatched
 * under their row lock (skipped by the others), deliveries are claimed from the leased job queue
 * (`db/job-queue.ts`) by one atomic conditional UPDATE under a lease, and an outcome is written only while the lease is still the worker's own,
 * so each event reaches each endpoint once (unless a receiver outlives a lease, which the 10 s
 * timeout against the 60 s lease rules out). Every stored time comes from `deps.clock`.
 */
export function createWebhookWorker(deps: WebhookWorkerDeps, options: WebhookWorkerOptions = {}): WebhookWorker {
  const { db, clock, log } = deps;
  const concurrency = options.concurrency ?? 10;
  const maxDeliveries = options.maxDeliveriesPerPass ?? 100;
  const sender = createWebhookSender(parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS), {
    timeoutMs: options.timeoutMs,
  });
  const delivery: DeliveryDeps = { db, clock, ids: deps.ids, box: createSecretBox(deps.secretKey), sender };
  let lastPrune: number | undefined;

  async function deliverDue(): Promise<number> {
    let claimed = 0;
    while (claimed < maxDeliveries) {
      const now = clock.now();
      const lockedUntil = leaseUntil(now, DELIVERY_LEASE_MS);
      const batch = await claimDueDeliveries(db, {
        now: now.toISOString(),
        lockedUntil,
        limit: Math.min(concurrency, maxDeliveries - claimed),
      });
      if (batch.length === 0) {
        break;
      }
      claimed += batch.length;
      const targets = new Map(
        (
          await findSendTargets(
            db,
            batch.map((row) => row.webhook_id),
          )
        ).map((target) => [target.id, target]),
      );
      await Promise.all(
        batch.map(async (row) => {
          const target = targets.get(row.webhook_id);
          // Deleted since the claim: its deliveries went with it.
          if (!target) {
            return;
          }
          const outcome = await attemptDelivery(delivery, row, target, lockedUntil).catch((error: unknown) => {
            // Not even the failure could be recorded: the lease runs out and the delivery is claimed
            // again, up to MAX_UNRECORDED_ATTEMPTS times. The rest of the batch goes on.
            log.error({ err: error, webhookId: row.webhook_id, deliveryId: row.id }, 'webhook attempt not recorded');
            return null;
          });
          if (outcome && !outcome.ok) {
            log.warn(
              { webhookId: row.webhook_id, deliveryId: row.id, attempts: row.attempts, statusCode: outcome.statusCode },
              `webhook delivery failed: ${outcome.error}`,
            );
          }
        }),
      );
    }
    return claimed;
  }

  /** Finished deliveries older than the event log's retention, a batch every ten minutes. */
  async function prune(): Promise<number> {
    const now = clock.now().getTime();
    if (lastPrune !== undefined && now - lastPrune < PRUNE_EVERY_MS) {
      return 0;
    }
    lastPrune = now;
    const cutoff = now - deps.config.EVENT_RETENTION_DAYS * DAY_MS;
    // The smallest ULID of the cutoff's millisecond: every id made before it sorts lower.
    const pruned = await deleteFinishedDeliveriesBefore(db, `${encodeTime(cutoff, 10)}${'0'.repeat(16)}`, PRUNE_BATCH);
    if (pruned === PRUNE_BATCH) {
      // More to go: the next pass continues rather than waiting ten minutes.
      lastPrune = undefined;
    }
    return pruned;
  }

  async function runOnce(): Promise<number> {
    const dispatched = await dispatchEvents({ db, clock, ids: deps.ids });
    const delivered = await deliverDue();
    const pruned = await prune();
    return dispatched + delivered + (pruned === PRUNE_BATCH ? 1 : 0);
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: deps.config.WEBHOOK_POLL_MS,
    // Any progress: go again at once, until nothing is left to dispatch or due.
    batchSize: 1,
    onError: (error) => log.error({ err: error }, 'webhook pass failed'),
  });

  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      await sender.close();
    },
    runOnce,
  };
}
