import { findSlackMessageLink } from './slack-channel.repository.js';
import { downloadSlackFiles } from './slack-files.js';
import type { SlackInbound, SlackMessageEvent } from './slack-inbound.service.js';
import { lookUpSlackPerson } from './slack-people.js';
import { findSlackRequestByFirstTs, insertSlackRequestOnce, updateSlackRequest } from './slack-request.repository.js';
import { createSlackTicket, permalinkOf, type SlackFiling } from './slack-ticket.service.js';

/** The reaction that makes a message a ticket, whatever the channel's detection mode. */
export const TICKET_REACTION = 'ticket';

/** The message reacted to: the channel's history holds a top-level one, its thread a reply. */
async function fetchMessage(inbound: SlackInbound, ts: string): Promise<SlackMessageEvent | undefined> {
  const channel = inbound.channel.channel_id;
  const history = await inbound.client.conversations.history({ channel, latest: ts, inclusive: true, limit: 1 });
  const top = history.messages?.find((message) => message.ts === ts);
  if (top) {
    return top as SlackMessageEvent;
  }
  const replies = await inbound.client.conversations.replies({ channel, ts, limit: 200 });
  return replies.messages?.find((message) => message.ts === ts) as SlackMessageEvent | undefined;
}

/**
 * 🎫 on a message of a customer channel: the message becomes a ticket, whatever the mode (its
 * author is the requester). A message that is part of a ticket already is left alone. A decision
 * the detector took on it stays as it was (the report measures the detector, and a 🎫 on a message
 * it passed over is what an admin marks wrong); a message it never judged gets a decision of mode
 * `reaction`.
 */
export async function ticketFromReaction(inbound: SlackInbound, reactedBy: string, ts: string): Promise<string> {
  const { deps, installation, channel } = inbound;
  const organizationId = installation.organization_id;
  if (channel.kind !== 'customer') {
    return `ignored:${channel.kind}_channel`;
  }
  if (await findSlackMessageLink(deps.db, organizationId, channel.channel_id, ts)) {
    return 'ignored:already_a_ticket';
  }
  if (!channel.team_id) {
    deps.log.warn({ channelId: channel.channel_id }, 'Slack 🎫 not filed: its channel has no team');
    return 'ignored:channel_without_team';
  }
  const teamId = channel.team_id;
  const message = await fetchMessage(inbound, ts);
  if (!message?.user || message.bot_id) {
    return 'ignored:message_not_found';
  }
  const person = await lookUpSlackPerson(inbound.client, message.user);
  const permalink = await permalinkOf(inbound.client, channel.channel_id, ts);
  const files = await downloadSlackFiles(deps.config, inbound.token, message.files ?? []);
  const text = message.text ?? '';
  const filing: SlackFiling = { ...inbound, person, text, files, written: [] };
  const now = deps.clock.now().toISOString();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const decided = await findSlackRequestByFirstTs(trx, organizationId, channel.channel_id, ts);
      if (decided?.ticket_id) {
        return 'ignored:already_a_ticket';
      }
      const requestId = decided?.id ?? deps.ids.ulid();
      if (!decided) {
        await insertSlackRequestOnce(trx, {
          id: requestId,
          organization_id: organizationId,
          channel_id: channel.channel_id,
          slack_user_id: person.userId,
          first_ts: ts,
          last_ts: ts,
          text,
          mode: 'reaction',
          is_request: 1,
          reason: `🎫 reaction by <@${reactedBy}>`,
          grouping_until: now,
          created_at: now,
          updated_at: now,
        });
      }
      const ticketId = await createSlackTicket(trx, filing, {
        teamId,
        threadTs: message.thread_ts ?? ts,
        messageTss: [ts],
        permalink,
        note: `Made a ticket in #${channel.name} by a 🎫 reaction of <@${reactedBy}>`,
      });
      await updateSlackRequest(trx, requestId, { ticket_id: ticketId, updated_at: now });
      return 'ticket';
    });
  } catch (error) {
    await Promise.allSettled(filing.written.map((key) => deps.storage.discard(key)));
    throw error;
  }
}
