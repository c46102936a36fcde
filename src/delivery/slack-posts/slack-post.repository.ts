import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import { inJsonArray } from '../../db/dialect.js';
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
import type { SlackPostStatus, SlackPostTable } from './slack-post.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Inserts the comment's post unless it has one; true when this call inserted it. */
export async function insertSlackPost(
  db: Db,
  row: Insertable<Omit<SlackPostTable, 'attempts' | 'locked_until' | 'last_error' | 'posted_ts' | 'posted_at'>>,
): Promise<boolean> {
  const result = await db
    .insertInto('slack_posts')
    .values(row)
    .onConflict((oc) => oc.column('comment_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

const CLAIM_COLUMNS = [
  'id',
  'organization_id',
  'ticket_id',
  'comment_id',
  'channel_id',
  'thread_ts',
  'text',
  'username',
  'icon_url',
  'attempts',
] as const;

const SLACK_POST_LEASE: LeaseColumns<DB, 'slack_posts'> = {
  table: 'slack_posts',
  lease: 'locked_until',
  state: { column: 'status', claimed: 'posting' },
  attempts: 'attempts',
};

/** Not finished: a later post of the same ticket waits for it, so a thread reads in the order agents wrote. */
const UNFINISHED: readonly SlackPostStatus[] = ['pending', 'posting', 'retrying'];

/**
 * Due: pending or retrying posts whose time has come with no earlier unfinished post of their
 * ticket, and posts whose worker let the lease lapse with attempts left. Oldest due first.
 */
function slackPostQueue(maxAttempts: number): LeasedQueue<DB, 'slack_posts', (typeof CLAIM_COLUMNS)[number]> {
  return {
    ...SLACK_POST_LEASE,
    claimable: (eb, now) =>
      eb.or([
        eb.and([
          eb('status', 'in', ['pending', 'retrying']),
          eb('next_attempt_at', '<=', now),
          noEarlierUnfinished(eb, SLACK_POST_LEASE, { key: 'ticket_id', position: 'id', unfinished: UNFINISHED }),
        ]),
        leaseLapsed(eb, SLACK_POST_LEASE, now, maxAttempts),
      ]),
    order: ['next_attempt_at', 'id'],
    returning: CLAIM_COLUMNS,
    onClaim: (now) => ({ updated_at: now }),
  };
}

export function claimDueSlackPosts(
  db: Kysely<DB>,
  claim: { now: string; leaseUntil: string; limit: number; maxAttempts: number },
) {
  return claimLeased(db, slackPostQueue(claim.maxAttempts), claim);
}

export type ClaimedSlackPost = Awaited<ReturnType<typeof claimDueSlackPosts>>[number];

/** Posts whose lease ran out on their last attempt: failed, with why, rather than posted twice. */
export function failExhaustedSlackPosts(db: Db, lapse: { now: string; maxAttempts: number }): Promise<number> {
  return failLapsedLeases(db, SLACK_POST_LEASE, lapse, {
    status: 'failed',
    next_attempt_at: null,
    last_error: 'The last attempt ended with no outcome recorded (the worker stopped); not tried again',
    updated_at: lapse.now,
  });
}

/** Records how an attempt went, only while the claim is still the worker's own. */
export function finishSlackPost(
  db: Db,
  lease: Lease,
  outcome:
    | { status: 'posted'; at: string; ts: string }
    | { status: 'retrying' | 'failed'; at: string; nextAttemptAt: string | null; lastError: string },
): Promise<boolean> {
  return finishUnderLease(
    db,
    SLACK_POST_LEASE,
    lease,
    outcome.status === 'posted'
      ? {
          status: 'posted',
          posted_ts: outcome.ts,
          posted_at: outcome.at,
          last_error: null,
          next_attempt_at: null,
          updated_at: outcome.at,
        }
      : { status: outcome.status, next_attempt_at: outcome.nextAttemptAt, last_error: outcome.lastError, updated_at: outcome.at },
  );
}

/** The posts of these comments in the organization; comments with none are left out. */
const postsByCommentIdsStatement = prepareQuery<
  { organizationId: string; commentIds: string },
  Pick<
    Selectable<SlackPostTable>,
    'comment_id' | 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'posted_at' | 'updated_at'
  >
>((db: Db, param) =>
  db
    .selectFrom('slack_posts')
    .select(['comment_id', 'status', 'attempts', 'last_error', 'next_attempt_at', 'posted_at', 'updated_at'])
    .where('organization_id', '=', param('organizationId'))
    .where(inJsonArray(db, 'comment_id', param('commentIds'))),
);

/** One compiled statement for any number of comments (a page of comments asks on every read). */
export async function findSlackPostsByCommentIds(db: Db, organizationId: string, commentIds: string[]) {
  if (commentIds.length === 0) {
    return [];
  }
  const { rows } = await postsByCommentIdsStatement.execute(db, { organizationId, commentIds: JSON.stringify(commentIds) });
  return rows;
}

export type SlackPostStateRow = Awaited<ReturnType<typeof findSlackPostsByCommentIds>>[number];
