import type { WebClient } from '@slack/web-api';
import { leaseUntil } from '../../db/job-queue.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { readEventBatch } from '../../platform/events/event-log.service.js';
import { presentTicketsById } from '../../platform/tickets/ticket.lookup.js';
import type { Ticket } from '../../platform/tickets/ticket.presenter.js';
import { findSlackInstallation, type SlackInstallationRow } from './slack.repository.js';
import { linkSlackMessage } from './slack-channel.repository.js';
import { openBotToken, type SlackDeps } from './slack-install.service.js';
import { actOnSlackRefusal, classifySlackFailure, type SlackFailure, slackJobClient } from './slack-refusals.js';
import {
  claimTriageCursor,
  listActiveSlackOrganizations,
  listTriageChannels,
  listTriagePosts,
  releaseTriageCursor,
  saveTriagePostOnThread,
} from './slack-triage.repository.js';
import { triageMessage } from './slack-triage.service.js';

export interface SlackTriageWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass over every installed organization's new events; resolves to how many events it handled. */
  runOnce(): Promise<number>;
}

/** A new ticket is posted; any of these changes updates its posts in place. */
const TRIAGE_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.assigned', 'ticket.status_changed'] as const;
const EVENTS_PER_BATCH = 100;
const LEASE_MS = 120_000;
/** How long an organization waits after Slack was unreachable before its posts are tried again. */
const UNREACHABLE_WAIT_MS = 30_000;

type TriageEvent = Awaited<ReturnType<typeof readEventBatch>>['events'][number];

/** Stops the batch at this event: it is tried again, from here, once `waitMs` have passed. */
class TriagePaused extends Error {
  constructor(readonly waitMs: number) {
    super('triage paused');
  }
}

/** Makes a Web API call: undefined when Slack refused it for good (acted on); throws `TriagePaused` to try again later. */
async function callSlack<T>(
  deps: SlackDeps,
  installation: SlackInstallationRow,
  channelId: string,
  request: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    const failure: SlackFailure = classifySlackFailure(error);
    if (failure.kind === 'ratelimited') {
      throw new TriagePaused(failure.retryAfterSeconds * 1000);
    }
    if (failure.kind === 'transient') {
      throw new TriagePaused(UNREACHABLE_WAIT_MS);
    }
    await actOnSlackRefusal(deps, installation, channelId, failure);
    deps.log.warn(
      { organizationId: installation.organization_id, channelId, reason: failure.reason },
      'Slack triage post refused',
    );
    if (failure.kind === 'token') {
      throw new TriagePaused(0);
    }
    return undefined;
  }
}

/**
 * Posts each new ticket from Slack in the organization's triage channels (those of its team, and
 * those of every team), and updates those posts in place as the ticket changes. Reads each
 * organization's event log behind a cursor of its own (`slack_triage_cursors`), held under a
 * lease, so one process at a time posts an organization's tickets, in order. Rate limited or
 * Slack unreachable: the cursor stays before that event and the organization waits; a channel
 * Slack refuses is disconnected, a dead token revokes the installation (admins told, once).
 */
export function createSlackTriageWorker(deps: SlackDeps, options: { pollMs?: number } = {}): SlackTriageWorker {
  const { db, clock, log } = deps;

  async function runOnce(): Promise<number> {
    let handled = 0;
    for (const organizationId of await listActiveSlackOrganizations(db)) {
      handled += await passOrganization(organizationId);
    }
    return handled;
  }

  async function passOrganization(organizationId: string): Promise<number> {
    const now = clock.now();
    const lease = leaseUntil(now, LEASE_MS);
    const afterSeq = await claimTriageCursor(db, organizationId, { now: now.toISOString(), until: lease });
    if (afterSeq === undefined) {
      return 0;
    }
    let seq = afterSeq;
    let lockedUntil: string | null = null;
    let handled = 0;
    try {
      const installation = await findSlackInstallation(db, organizationId);
      const token = installation ? openBotToken(deps, installation) : null;
      const { events, nextSeq } = await readEventBatch(db, organizationId, {
        types: TRIAGE_EVENTS,
        afterSeq,
        limit: EVENTS_PER_BATCH,
      });
      for (const event of events) {
        if (installation?.status === 'active' && token) {
          await handleEvent(slackJobClient(deps.config, token), installation, event);
        }
        seq = Number(event.seq);
        handled++;
      }
      seq = Math.max(seq, nextSeq);
    } catch (error) {
      if (!(error instanceof TriagePaused)) {
        throw error;
      }
      lockedUntil = new Date(clock.now().getTime() + error.waitMs).toISOString();
    } finally {
      await releaseTriageCursor(db, organizationId, lease, { seq, lockedUntil, now: clock.now().toISOString() });
    }
    return handled;
  }

  async function handleEvent(client: WebClient, installation: SlackInstallationRow, event: TriageEvent): Promise<void> {
    if (!event.ticket_id || event.occurred_at < installation.created_at) {
      return;
    }
    const [ticket] = await presentTicketsById(db, installation.organization_id, [event.ticket_id]);
    if (ticket?.source !== 'slack') {
      return;
    }
    if (event.type === 'ticket.created') {
      await postTicket(client, installation, ticket);
      return;
    }
    const message = triageMessage(deps.config, ticket);
    for (const post of await listTriagePosts(db, installation.organization_id, ticket.id)) {
      await callSlack(deps, installation, post.channel_id, () =>
        client.chat.update({ channel: post.channel_id, ts: post.message_ts, ...message }),
      );
    }
  }

  async function postTicket(client: WebClient, installation: SlackInstallationRow, ticket: Ticket): Promise<void> {
    const organizationId = installation.organization_id;
    const posted = new Set((await listTriagePosts(db, organizationId, ticket.id)).map((post) => post.channel_id));
    const thread = (ticket.metadata?.slack ?? {}) as { channelId?: unknown; threadTs?: unknown };
    for (const channel of await listTriageChannels(db, organizationId, ticket.teamId)) {
      if (posted.has(channel.channel_id)) {
        continue;
      }
      const answer = await callSlack(deps, installation, channel.channel_id, () =>
        client.chat.postMessage({ channel: channel.channel_id, ...triageMessage(deps.config, ticket) }),
      );
      if (!answer?.ts) {
        continue;
      }
      const at = clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await linkSlackMessage(trx, {
          id: deps.ids.ulid(),
          organization_id: organizationId,
          channel_id: channel.channel_id,
          message_ts: String(answer.ts),
          ticket_id: ticket.id,
          comment_id: null,
          direction: 'triage',
          created_at: at,
        });
        if (typeof thread.channelId === 'string' && typeof thread.threadTs === 'string') {
          await saveTriagePostOnThread(
            trx,
            {
              ticket_id: ticket.id,
              organization_id: organizationId,
              channel_id: thread.channelId,
              thread_ts: thread.threadTs,
              created_at: at,
            },
            { channelId: channel.channel_id, ts: String(answer.ts) },
          );
        }
      });
    }
  }

  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.pollMs ?? deps.config.OUTBOX_POLL_MS,
    batchSize: Number.POSITIVE_INFINITY,
    onError: (error) => log.error({ err: error }, 'Slack triage pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
