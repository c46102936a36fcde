import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import {
  claimLeased,
  failLapsedLeases,
  finishUnderLease,
  type Lease,
  type LeaseColumns,
  type LeasedQueue,
  leaseLapsed,
  noEarlierUnfinished,
} from '../../db/job-queue.js';

/** Kept Slack events as a leased queue: a claimed one is `processing` under a lease in `locked_until`. */
const EVENT_LEASE: LeaseColumns<DB, 'slack_events'> = {
  table: 'slack_events',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'processing' },
  attempts: 'attempts',
  key: 'event_id',
};

const EVENT_COLUMNS = [
  'event_id',
  'organization_id',
  'team_id',
  'event_type',
  'channel_id',
  'payload',
  'attempts',
  'locked_until',
] as const;

/**
 * Due: pending and its time has come (none yet, or a retry's), or processing under a lease that
 * lapsed, below `maxAttempts`. A channel's events go one at a time in Slack's order (`event_time`,
 * then `event_id`): none is due while an earlier one of its channel is unfinished. Events without a
 * channel go in any order.
 */
function eventQueue(maxAttempts: number): LeasedQueue<DB, 'slack_events', (typeof EVENT_COLUMNS)[number]> {
  return {
    ...EVENT_LEASE,
    claimable: (eb, now) =>
      eb.and([
        eb.or([
          eb.and([
            eb('slack_events.status', '=', 'pending'),
            eb.or([eb('slack_events.next_attempt_at', 'is', null), eb('slack_events.next_attempt_at', '<=', now)]),
          ]),
          leaseLapsed(eb, EVENT_LEASE, now, maxAttempts),
        ]),
        eb.or([
          eb('slack_events.channel_id', 'is', null),
          noEarlierUnfinished(eb, EVENT_LEASE, {
            key: 'channel_id',
            position: 'event_time',
            tieBreak: 'event_id',
            unfinished: ['pending', 'processing'],
          }),
        ]),
      ]),
    order: ['event_time', 'event_id'],
    returning: EVENT_COLUMNS,
  };
}

export type ClaimedSlackEvent = Awaited<ReturnType<typeof claimSlackEvents>>[number];

/** Claims up to `limit` due events under a lease until `leaseUntil`; concurrent workers never claim the same one. */
export function claimSlackEvents(db: Kysely<DB>, claim: { now: string; leaseUntil: string; limit: number; maxAttempts: number }) {
  return claimLeased(db, eventQueue(claim.maxAttempts), claim);
}

/** The event is handled: `done`, only while the lease is still this worker's. */
export function markSlackEventDone(db: Kysely<DB>, lease: Lease, now: string): Promise<boolean> {
  return finishUnderLease(db, EVENT_LEASE, lease, { status: 'done', processed_at: now, last_error: null });
}

/** The attempt failed: pending again at `retryAt`, or `failed` for good (`retryAt` null), with why. */
export function markSlackEventFailed(db: Kysely<DB>, lease: Lease, error: string, retryAt: string | null): Promise<boolean> {
  return finishUnderLease(
    db,
    EVENT_LEASE,
    lease,
    retryAt === null
      ? { status: 'failed', last_error: error, next_attempt_at: null }
      : { status: 'pending', last_error: error, next_attempt_at: retryAt },
  );
}

/** Events whose worker stopped on their last attempt every time: `failed`, rather than claimed forever. */
export function failAbandonedSlackEvents(db: Kysely<DB>, now: string, maxAttempts: number): Promise<number> {
  return failLapsedLeases(
    db,
    EVENT_LEASE,
    { now, maxAttempts },
    {
      status: 'failed',
      last_error: 'the worker stopped while handling it, on every attempt',
    },
  );
}
