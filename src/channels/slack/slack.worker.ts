import { backoffMs, leaseUntil } from '../../db/job-queue.js';
import { createGuardedFetch, parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { handleSlackEvent, type SlackHandlerDeps } from './slack-event-handlers.js';
import {
  type ClaimedSlackEvent,
  claimSlackEvents,
  failAbandonedSlackEvents,
  markSlackEventDone,
  markSlackEventFailed,
} from './slack-event-queue.repository.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

export interface SlackWorker {
  /** Polls every `pollMs` (at once again after a pass that did something) until `stop()`. */
  start(): void;
  /** Stops polling and waits for a pass in progress. */
  stop(): Promise<void>;
  /** One pass: handles the due events; resolves to how many it claimed. */
  runOnce(): Promise<number>;
}

export interface SlackWorkerOptions {
  pollMs?: number;
  /** Attempts before an event is `failed` for good. */
  maxAttempts?: number;
  /** The first retry's delay; each further one doubles. */
  retryBaseMs?: number;
  /** How long a claim vouches for its events: far beyond a Web API call's timeouts and retries. */
  leaseMs?: number;
}

const BATCH = 10;
const DEFAULT_POLL_MS = 1_000;
const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_LEASE_MS = 5 * 60_000;
const ERROR_MAX = 1_000;

/**
 * The Slack worker, one in every process: claims kept events from the leased job queue (one
 * conditional UPDATE, `for update skip locked` on PostgreSQL), one channel's in order, handles
 * each, and writes the outcome only while its lease holds. A failed event is retried with backoff,
 * then `failed` with its last error. Each handler writes in one transaction guarded by Slack's
 * unique keys (a message's `ts`, a request's first message), so an event handled again after a
 * lost lease files nothing twice.
 */
export function createSlackWorker(deps: SlackWorkerDeps, options: SlackWorkerOptions = {}): SlackWorker {
  const { db, clock, log } = deps;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // The `ai` mode's calls to the organization's provider go through the outbound guard, pooled per worker.
  const modelFetch = createGuardedFetch(parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS), {
    headersTimeoutMs: 60_000,
    bodyTimeoutMs: 60_000,
  });
  const handlerDeps: SlackHandlerDeps = { ...deps, modelFetch: modelFetch.fetch };

  async function handle(event: ClaimedSlackEvent, lockedUntil: string): Promise<void> {
    const lease = { id: event.event_id, until: lockedUntil };
    try {
      const outcome = await handleSlackEvent(handlerDeps, event);
      log.info({ eventId: event.event_id, type: event.event_type, outcome }, 'Slack event handled');
      if (!(await markSlackEventDone(db, lease, clock.now().toISOString()))) {
        log.warn({ eventId: event.event_id }, 'Slack event handled after its lease lapsed');
      }
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX);
      const retryAt =
        event.attempts >= maxAttempts
          ? null
          : new Date(clock.now().getTime() + backoffMs(event.attempts, options.retryBaseMs)).toISOString();
      log.warn({ err: error, eventId: event.event_id, attempts: event.attempts, retryAt }, 'Slack event failed');
      await markSlackEventFailed(db, lease, message, retryAt);
    }
  }

  async function runOnce(): Promise<number> {
    const now = clock.now();
    await failAbandonedSlackEvents(db, now.toISOString(), maxAttempts);
    const lockedUntil = leaseUntil(now, leaseMs);
    const batch = await claimSlackEvents(db, { now: now.toISOString(), leaseUntil: lockedUntil, limit: BATCH, maxAttempts });
    // One channel has at most one event in a batch (the queue's order): the batch goes side by side.
    await Promise.all(batch.map((event) => handle(event, lockedUntil)));
    return batch.length;
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.pollMs ?? DEFAULT_POLL_MS,
    batchSize: 1,
    onError: (error) => log.error({ err: error }, 'Slack pass failed'),
  });
  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      await modelFetch.close();
    },
    runOnce,
  };
}
