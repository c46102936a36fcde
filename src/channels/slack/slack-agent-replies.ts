import { AppError } from '../../lib/errors.js';
import { addComment } from '../../platform/tickets/comment.service.js';
import type { SlackInstallationRow } from './slack.repository.js';
import { slackAgentFinder } from './slack-agents.js';
import type { SlackChannelRow } from './slack-channel.repository.js';
import { findSlackMessageLink, linkSlackMessage } from './slack-channel.repository.js';
import { slackCommentText } from './slack-ticket.service.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/**
 * A reply the organization's own person wrote in a ticket's Slack thread: the ticket's public
 * comment by the agent matched to them by email, so that what the customer was told in Slack is on
 * the ticket too. It is not posted back to Slack. Kept once by its message: the comment's
 * deduplication key holds it through a retry, then the message's link. A person who is not one of
 * the organization's agents, or may not see the ticket, is left alone (logged).
 */
export async function fileAgentThreadReply(
  inbound: { deps: SlackWorkerDeps; installation: SlackInstallationRow; channel: SlackChannelRow },
  message: { user: string; ts: string; text: string; fileCount: number },
  threadRoot: string,
): Promise<string> {
  const { deps, installation, channel } = inbound;
  const organizationId = installation.organization_id;
  const root = await findSlackMessageLink(deps.db, organizationId, channel.channel_id, threadRoot);
  if (!root) {
    return 'ignored:own_side';
  }
  if (await findSlackMessageLink(deps.db, organizationId, channel.channel_id, message.ts)) {
    return 'duplicate';
  }
  const match = await slackAgentFinder(deps, installation)(message.user);
  if (!match.agent) {
    deps.log.info(
      { channelId: channel.channel_id, ts: message.ts, reason: match.reason },
      'Slack thread reply of our side: no agent',
    );
    return `ignored:${match.reason}`;
  }
  const files = message.fileCount > 0 ? [`(${message.fileCount} file${message.fileCount === 1 ? '' : 's'} shared in Slack)`] : [];
  const content = [slackCommentText(message.text, { files: [], skipped: [] }), ...files].join('\n\n');
  let commentId: string;
  try {
    const { comment } = await addComment(
      deps,
      match.agent,
      root.ticket_id,
      { content, commentVisibility: 'public', deDuplicationKey: `slack:${channel.channel_id}:${message.ts}` },
      { alreadyInSlack: true },
    );
    commentId = comment.id;
  } catch (error) {
    if (error instanceof AppError) {
      deps.log.info(
        { ticketId: root.ticket_id, ts: message.ts, error: error.message },
        'Slack thread reply of our side: not filed',
      );
      return 'ignored:not_filed';
    }
    throw error;
  }
  await linkSlackMessage(deps.db, {
    id: deps.ids.ulid(),
    organization_id: organizationId,
    channel_id: channel.channel_id,
    message_ts: message.ts,
    ticket_id: root.ticket_id,
    comment_id: commentId,
    direction: 'inbound',
    created_at: deps.clock.now().toISOString(),
  });
  return 'agent_comment';
}
