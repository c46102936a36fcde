import type { FetchLike } from '../../lib/guarded-fetch.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { findSlackInstallation } from './slack.repository.js';
import { findSlackChannel } from './slack-channel.repository.js';
import { slackClient } from './slack-client.js';
import type { ClaimedSlackEvent } from './slack-event-queue.repository.js';
import { handleSlackMessage, type SlackInbound, type SlackMessageEvent } from './slack-inbound.service.js';
import { openBotToken } from './slack-install.service.js';
import { runSlackInteraction, type SlackInteractionPayload } from './slack-interactions.service.js';
import { runSlackReactionCommand } from './slack-reaction-commands.js';
import { TICKET_REACTION, ticketFromReaction } from './slack-reaction-ticket.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** What the worker hands its handlers: the worker's deps, and the guarded fetch model calls go through. */
export interface SlackHandlerDeps extends SlackWorkerDeps {
  modelFetch: FetchLike;
}

/** The reactions that are commands on a ticket (H4's `runSlackReactionCommand`). */
const COMMAND_REACTIONS = new Set(['eyes', 'white_check_mark']);

interface ReactionEvent {
  type?: string;
  user?: string;
  reaction?: string;
  item?: { type?: string; channel?: string; ts?: string };
}

/**
 * Acts on one kept event, by its type: a message, a reaction (🎫 makes a ticket, 👀 and ✅ are
 * commands), or a button of a triage post. Events of an installation revoked since, or of a channel
 * no longer read, are left alone. Answers what it did, for the log; throws to be retried.
 */
export async function handleSlackEvent(deps: SlackHandlerDeps, event: ClaimedSlackEvent): Promise<string> {
  const installation = await findSlackInstallation(deps.db, event.organization_id);
  if (installation?.status !== 'active' || installation.team_id !== event.team_id) {
    return 'ignored:not_installed';
  }
  const payload = JSON.parse(event.payload) as { event?: unknown };
  if (event.event_type === 'block_actions') {
    return runSlackInteraction(deps, installation, payload as SlackInteractionPayload);
  }
  const token = openBotToken(deps, installation);
  if (!token) {
    throw new Error('the bot token cannot be opened (was SECRET_KEY changed?)');
  }
  const inner = (payload.event ?? {}) as SlackMessageEvent & ReactionEvent;
  const channelId = inner.channel ?? inner.item?.channel;
  if (event.event_type === 'reaction_added' && inner.reaction && COMMAND_REACTIONS.has(inner.reaction)) {
    if (!inner.user || !channelId || !inner.item?.ts) {
      return 'ignored:incomplete_reaction';
    }
    return runSlackReactionCommand(deps, {
      organizationId: installation.organization_id,
      installation,
      reaction: inner.reaction,
      slackUserId: inner.user,
      channelId,
      messageTs: inner.item.ts,
    });
  }
  const channel = channelId ? await findSlackChannel(deps.db, installation.organization_id, channelId) : undefined;
  if (!channel || channel.kind === 'ignored' || channel.status !== 'connected') {
    return 'ignored:channel_not_read';
  }
  const inbound: SlackInbound = {
    deps,
    installation,
    client: slackClient(deps.config, token),
    token,
    channel,
    model: { db: deps.db, config: deps.config, box: createSecretBox(deps.secretKey), fetch: deps.modelFetch },
  };
  if (event.event_type === 'message') {
    return handleSlackMessage(inbound, inner);
  }
  if (event.event_type === 'reaction_added') {
    if (inner.reaction !== TICKET_REACTION || inner.item?.type !== 'message' || !inner.item.ts || !inner.user) {
      return `ignored:reaction_${inner.reaction}`;
    }
    return ticketFromReaction(inbound, inner.user, inner.item.ts);
  }
  return `ignored:type_${event.event_type}`;
}
