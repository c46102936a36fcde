import { backoffMs, leaseUntil as leaseAt } from '../../db/job-queue.js';
import {
  type ClaimedSlackPost,
  claimDueSlackPosts,
  failExhaustedSlackPosts,
  finishSlackPost,
} from '../../delivery/slack-posts/slack-post.service.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { findSlackInstallation } from './slack.repository.js';
import { linkSlackMessage } from './slack-channel.repository.js';
import { openBotToken, type SlackDeps } from './slack-install.service.js';
import { toSlackMrkdwn } from './slack-mrkdwn.js';
import { actOnSlackRefusal, classifySlackFailure, slackJobClient } from './slack-refusals.js';

export interface SlackPostWorkerOptions {
  batchSize?: number;
  leaseMs?: number;
  /** After this many failed attempts a post is `failed`. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface SlackPostWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass: claims and posts due replies; resolves to how many it claimed. */
  runOnce(): Promise<number>;
}

type Outcome = Parameters<typeof finishSlackPost>[2];

/**
 * The sender of `slack_posts`: agents' replies posted in their ticket's Slack thread under the
 * agent's name and picture (`chat.postMessage`), one ticket's in the order written. Claimed from the
 * leased job queue, so any number of processes may run it. A rate-limited post is due again when
 * Slack's `Retry-After` says; Slack unreachable backs off; a channel Slack refuses or a dead token
 * fails the post at once and disconnects the channel or revokes the installation (admins told).
 */
export function createSlackPostWorker(deps: SlackDeps, options: SlackPostWorkerOptions = {}): SlackPostWorker {
  const { db, clock, log } = deps;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 8;

  async function attempt(post: ClaimedSlackPost): Promise<Outcome> {
    const installation = await findSlackInstallation(db, post.organization_id);
    const failed = (lastError: string): Outcome => ({
      status: 'failed',
      at: clock.now().toISOString(),
      nextAttemptAt: null,
      lastError,
    });
    if (installation?.status !== 'active') {
      return failed(`Slack is not connected (${installation?.revoked_reason ?? 'not installed'}): install the app again`);
    }
    const token = openBotToken(deps, installation);
    if (!token) {
      return failed('The Slack token cannot be opened with this server’s SECRET_KEY: install the app again');
    }
    try {
      const answer = await slackJobClient(deps.config, token).chat.postMessage({
        channel: post.channel_id,
        thread_ts: post.thread_ts,
        text: toSlackMrkdwn(post.text),
        ...(post.username ? { username: post.username } : {}),
        ...(post.icon_url ? { icon_url: post.icon_url } : {}),
      });
      return { status: 'posted', at: clock.now().toISOString(), ts: answer.ts ?? '' };
    } catch (error) {
      const failure = classifySlackFailure(error);
      const at = clock.now();
      if (failure.kind === 'ratelimited' && post.attempts < maxAttempts) {
        const nextAttemptAt = new Date(at.getTime() + failure.retryAfterSeconds * 1000).toISOString();
        return { status: 'retrying', at: at.toISOString(), nextAttemptAt, lastError: failure.reason };
      }
      if ((failure.kind === 'transient' || failure.kind === 'ratelimited') && post.attempts < maxAttempts) {
        const delay = backoffMs(post.attempts, options.baseDelayMs, options.maxDelayMs);
        return {
          status: 'retrying',
          at: at.toISOString(),
          nextAttemptAt: new Date(at.getTime() + delay).toISOString(),
          lastError: failure.reason,
        };
      }
      await actOnSlackRefusal(deps, installation, post.channel_id, failure);
      log.warn({ slackPostId: post.id, attempts: post.attempts, reason: failure.reason }, 'Slack reply not posted');
      return failed(failure.reason);
    }
  }

  async function deliver(post: ClaimedSlackPost, until: string): Promise<void> {
    const outcome = await attempt(post);
    const lease = { id: post.id, until };
    if (outcome.status !== 'posted') {
      await finishSlackPost(db, lease, outcome);
      return;
    }
    await db.transaction().execute(async (trx) => {
      if (await finishSlackPost(trx, lease, outcome)) {
        await linkSlackMessage(trx, {
          id: deps.ids.ulid(),
          organization_id: post.organization_id,
          channel_id: post.channel_id,
          message_ts: outcome.ts,
          ticket_id: post.ticket_id,
          comment_id: post.comment_id,
          direction: 'outbound',
          created_at: outcome.at,
        });
      }
    });
  }

  async function runOnce(): Promise<number> {
    let claimed = 0;
    await failExhaustedSlackPosts(db, { now: clock.now().toISOString(), maxAttempts });
    while (claimed < batchSize) {
      const now = clock.now();
      const until = leaseAt(now, leaseMs);
      const [post] = await claimDueSlackPosts(db, { now: now.toISOString(), leaseUntil: until, limit: 1, maxAttempts });
      if (!post) {
        break;
      }
      claimed++;
      await deliver(post, until);
    }
    return claimed;
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: deps.config.OUTBOX_POLL_MS,
    batchSize,
    onError: (error) => log.error({ err: error }, 'Slack post pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
