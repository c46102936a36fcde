import type { WebClient } from '@slack/web-api';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { deriveCommentContent } from '../../platform/tickets/comment-content.js';
import {
  editCustomerCommentFromChannel,
  removeCustomerCommentFromChannel,
} from '../../platform/tickets/comment-inbound.service.js';
import { findLiveTicketAccess } from '../../platform/tickets/ticket.lookup.js';
import type { SlackInstallationRow } from './slack.repository.js';
import { fileAgentThreadReply } from './slack-agent-replies.js';
import { findSlackMessageLink, type SlackChannelRow } from './slack-channel.repository.js';
import { decideRequest } from './slack-detection.js';
import type { ModelCaller } from './slack-detection-ai.js';
import { downloadSlackFiles, type SlackFile } from './slack-files.js';
import { isOrganizationUser, lookUpSlackPerson, type SlackPerson } from './slack-people.js';
import {
  findOpenSlackRequest,
  insertSlackRequestOnce,
  type SlackRequestRow,
  updateSlackRequest,
} from './slack-request.repository.js';
import { addSlackComment, createSlackTicket, permalinkOf, type SlackFiling, slackCommentText } from './slack-ticket.service.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** A `message` event as far as the inbound side reads it. */
export interface SlackMessageEvent {
  type?: string;
  subtype?: string;
  channel?: string;
  user?: string;
  /** The author's workspace: another than the installation's for a Slack Connect partner. */
  user_team?: string;
  team?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  files?: SlackFile[];
  /** `message_changed`: the message as it is now. */
  message?: SlackMessageEvent;
  /** `message_deleted`: the message that was deleted. */
  deleted_ts?: string;
  previous_message?: SlackMessageEvent;
}

/** Where a Slack event is handled: the organization's installation, its bot's client, and the channel's settings. */
export interface SlackInbound {
  deps: SlackWorkerDeps;
  installation: SlackInstallationRow;
  client: WebClient;
  /** The bot token, for downloading files. */
  token: string;
  channel: SlackChannelRow;
  model: ModelCaller;
}

/** New messages: plain, with files, or a thread reply also sent to the channel. */
const NEW_MESSAGE_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

/** A Slack `ts` (`1700000000.000100`, seconds) as an instant. */
export function instantOfTs(ts: string): string {
  return new Date(Math.round(Number.parseFloat(ts) * 1000)).toISOString();
}

/**
 * A `message` event in a connected channel: a new message (from a customer, a candidate request or
 * a comment on its ticket), an edit or a deletion of one filed. The bot's own messages, other
 * bots', joins, leaves and the organization's own people are left alone. Answers what it did.
 */
export async function handleSlackMessage(inbound: SlackInbound, event: SlackMessageEvent): Promise<string> {
  if (event.subtype === 'message_changed') {
    return event.message ? editFromSlack(inbound, event.message) : 'ignored:no_message';
  }
  if (event.subtype === 'message_deleted') {
    const ts = event.deleted_ts ?? event.previous_message?.ts;
    return ts ? deleteFromSlack(inbound, ts) : 'ignored:no_message';
  }
  if (!NEW_MESSAGE_SUBTYPES.has(event.subtype)) {
    return `ignored:subtype_${event.subtype}`;
  }
  if (!event.user || !event.ts || event.bot_id || event.user === inbound.installation.bot_user_id) {
    return 'ignored:bot';
  }
  if (inbound.channel.kind !== 'customer') {
    return `ignored:${inbound.channel.kind}_channel`;
  }
  const threadRoot = event.thread_ts && event.thread_ts !== event.ts ? event.thread_ts : null;
  // A member of the installation's own workspace is known without asking Slack; a partner's by their email.
  const ownWorkspace = (event.user_team ?? event.team) === inbound.installation.team_id;
  const person = ownWorkspace ? null : await lookUpSlackPerson(inbound.client, event.user);
  if (!person || (await isOrganizationUser(inbound.deps, inbound.installation, person))) {
    // The organization's people answering in a ticket's thread: their agent's comment; their top-level messages are never requests.
    if (threadRoot) {
      const reply = { user: event.user, ts: event.ts, text: event.text ?? '', fileCount: event.files?.length ?? 0 };
      return fileAgentThreadReply(inbound, reply, threadRoot);
    }
    inbound.deps.log.info(
      { channelId: inbound.channel.channel_id, ts: event.ts, threadTs: threadRoot },
      "Slack message of the organization's own people: left alone",
    );
    return 'ignored:own_side';
  }
  const message = { ts: event.ts, text: event.text ?? '', files: event.files ?? [] };
  return threadRoot ? fileThreadReply(inbound, person, message, threadRoot) : fileTopLevel(inbound, person, message);
}

interface NewMessage {
  ts: string;
  text: string;
  files: SlackFile[];
}

/** Runs `write` in a transaction with the message's downloaded files; files written for a rolled-back one are discarded. */
async function withFiling<T>(
  inbound: SlackInbound,
  person: SlackPerson,
  message: NewMessage,
  write: (trx: Transaction<DB>, filing: SlackFiling) => Promise<T>,
  text = message.text,
): Promise<T> {
  const files = await downloadSlackFiles(inbound.deps.config, inbound.token, message.files);
  const filing: SlackFiling = { ...inbound, person, text, files, written: [] };
  try {
    return await inbound.deps.db.transaction().execute((trx) => write(trx, filing));
  } catch (error) {
    await Promise.allSettled(filing.written.map((key) => inbound.deps.storage.discard(key)));
    throw error;
  }
}

/** A reply in a ticket's thread (any message of the ticket is a thread root): a customer comment on it. */
async function fileThreadReply(inbound: SlackInbound, person: SlackPerson, message: NewMessage, threadRoot: string) {
  const { organization_id: organizationId } = inbound.installation;
  const root = await findSlackMessageLink(inbound.deps.db, organizationId, inbound.channel.channel_id, threadRoot);
  if (!root) {
    return 'ignored:thread_without_ticket';
  }
  if (await findSlackMessageLink(inbound.deps.db, organizationId, inbound.channel.channel_id, message.ts)) {
    return 'duplicate';
  }
  const commentId = await withFiling(inbound, person, message, (trx, filing) =>
    addSlackComment(trx, filing, { ticketId: root.ticket_id, messageTs: message.ts }),
  );
  return commentId ? 'comment' : 'ignored:ticket_gone';
}

/**
 * A customer's top-level message: it joins their open group in the channel (within
 * `group_window_seconds` of its last message) or starts one. A group that is a ticket takes it as a
 * comment; otherwise the decision is taken (again, on the joined text) and stored, and a request
 * becomes a ticket.
 */
async function fileTopLevel(inbound: SlackInbound, person: SlackPerson, message: NewMessage): Promise<string> {
  const { deps, installation, channel } = inbound;
  const messageAt = instantOfTs(message.ts);
  const open = await findOpenSlackRequest(deps.db, {
    organizationId: installation.organization_id,
    channelId: channel.channel_id,
    slackUserId: person.userId,
    messageAt,
  });
  if (open && Number.parseFloat(open.last_ts) >= Number.parseFloat(message.ts)) {
    return 'duplicate';
  }
  const groupingUntil = new Date(Date.parse(messageAt) + channel.group_window_seconds * 1000).toISOString();
  if (open?.ticket_id) {
    const ticketId = open.ticket_id;
    const commentId = await withFiling(inbound, person, message, async (trx, filing) => {
      const id = await addSlackComment(trx, filing, { ticketId, messageTs: message.ts });
      await updateSlackRequest(trx, open.id, grouped(open, message, groupingUntil, deps.clock.now().toISOString()));
      return id;
    });
    return commentId ? 'comment' : 'ignored:ticket_gone';
  }
  const text = open ? `${open.text}\n${message.text}` : message.text;
  const decision = await decideRequest(inbound.model, channel, text, installation.bot_user_id);
  const firstTs = open?.first_ts ?? message.ts;
  const teamId = decision.isRequest ? channel.team_id : null;
  const permalink = teamId ? await permalinkOf(inbound.client, channel.channel_id, firstTs) : null;
  // A group that becomes a ticket now takes its earlier messages' files and links too.
  const earlier = open && teamId ? await earlierGroupMessages(inbound, person.userId, open.first_ts, message.ts) : [];
  const now = deps.clock.now().toISOString();
  const outcome = await withFiling(
    inbound,
    person,
    teamId ? { ...message, files: [...earlier.flatMap((each) => each.files), ...message.files] } : { ...message, files: [] },
    async (trx, filing) => {
      const verdict = { mode: decision.mode, is_request: decision.isRequest ? 1 : 0, reason: decision.reason };
      let requestId = open?.id;
      if (open) {
        await updateSlackRequest(trx, open.id, { ...grouped(open, message, groupingUntil, now), ...verdict });
      } else {
        requestId = deps.ids.ulid();
        const inserted = await insertSlackRequestOnce(trx, {
          id: requestId,
          organization_id: installation.organization_id,
          channel_id: channel.channel_id,
          slack_user_id: person.userId,
          first_ts: message.ts,
          last_ts: message.ts,
          text,
          ...verdict,
          grouping_until: groupingUntil,
          created_at: now,
          updated_at: now,
        });
        if (!inserted) {
          return 'duplicate';
        }
      }
      if (!teamId || !requestId) {
        return decision.isRequest ? 'request_without_team' : 'not_a_request';
      }
      const ticketId = await createSlackTicket(trx, filing, {
        teamId,
        threadTs: firstTs,
        messageTss: [...new Set([firstTs, ...earlier.map((each) => each.ts), message.ts])],
        permalink,
        note: `Detected as a request in #${channel.name}: ${decision.reason}`,
      });
      await updateSlackRequest(trx, requestId, { ticket_id: ticketId, updated_at: now });
      return 'ticket';
    },
    text,
  );
  if (outcome === 'request_without_team') {
    deps.log.warn({ channelId: channel.channel_id }, 'Slack request not filed: its channel has no team');
  }
  return outcome;
}

/**
 * The person's messages of a group before `beforeTs` (from its first), as Slack holds them now: their
 * `ts` and files. Slack refusing (a scope removed, the channel gone) leaves them out, logged: the
 * ticket is made all the same.
 */
async function earlierGroupMessages(
  inbound: SlackInbound,
  slackUserId: string,
  firstTs: string,
  beforeTs: string,
): Promise<{ ts: string; files: SlackFile[] }[]> {
  try {
    const history = await inbound.client.conversations.history({
      channel: inbound.channel.channel_id,
      oldest: firstTs,
      latest: beforeTs,
      inclusive: true,
      limit: 100,
    });
    return (history.messages ?? [])
      .filter((each) => each.user === slackUserId && each.ts !== undefined && each.ts !== beforeTs)
      .map((each) => ({ ts: each.ts as string, files: (each.files ?? []) as SlackFile[] }))
      .sort((a, b) => Number.parseFloat(a.ts) - Number.parseFloat(b.ts));
  } catch (error) {
    inbound.deps.log.warn(
      { channelId: inbound.channel.channel_id, error: String(error) },
      'Slack group history not read: its earlier files are left out',
    );
    return [];
  }
}

/** A further message joining a group: its text appended, the group's window moved on. */
function grouped(open: SlackRequestRow, message: NewMessage, groupingUntil: string, now: string) {
  return { last_ts: message.ts, text: `${open.text}\n${message.text}`, grouping_until: groupingUntil, updated_at: now };
}

/**
 * A customer edited a message their ticket was made of (its description holds the request as it
 * was decided): the new wording reaches the ticket as their comment, so the agent sees what changed.
 */
async function commentRequestEdit(
  inbound: SlackInbound,
  ticketId: string,
  message: { user: string; ts: string; text: string },
): Promise<string> {
  const person = await lookUpSlackPerson(inbound.client, message.user);
  const edit = { ts: message.ts, text: `Edited in Slack: ${message.text}`, files: [] };
  const commentId = await withFiling(inbound, person, edit, (trx, filing) =>
    addSlackComment(trx, filing, { ticketId, messageTs: null }),
  );
  return commentId ? 'request_edit_commented' : 'ignored:ticket_gone';
}

/** A customer edited a message filed as a comment: the comment's text follows. */
async function editFromSlack(inbound: SlackInbound, message: SlackMessageEvent): Promise<string> {
  const { deps, installation, channel } = inbound;
  const link = message.ts
    ? await findSlackMessageLink(deps.db, installation.organization_id, channel.channel_id, message.ts)
    : undefined;
  if (link && !link.comment_id && link.direction === 'inbound' && message.user && message.ts) {
    return commentRequestEdit(inbound, link.ticket_id, { user: message.user, ts: message.ts, text: message.text ?? '' });
  }
  if (!link?.comment_id || link.direction !== 'inbound') {
    return 'ignored:not_a_filed_comment';
  }
  const commentId = link.comment_id;
  const content = await deriveCommentContent({ content: slackCommentText(message.text ?? '', { files: [], skipped: [] }) });
  const edited = await deps.db.transaction().execute(async (trx) => {
    const ticket = await findLiveTicketAccess(trx, installation.organization_id, link.ticket_id);
    return ticket
      ? editCustomerCommentFromChannel(trx, deps, { organizationId: installation.organization_id, ticket, content, commentId })
      : false;
  });
  return edited ? 'comment_edited' : 'ignored:comment_gone';
}

/** A customer deleted a message filed as a comment: the comment is removed. */
async function deleteFromSlack(inbound: SlackInbound, ts: string): Promise<string> {
  const { deps, installation, channel } = inbound;
  const link = await findSlackMessageLink(deps.db, installation.organization_id, channel.channel_id, ts);
  if (!link?.comment_id || link.direction !== 'inbound') {
    return 'ignored:not_a_filed_comment';
  }
  const commentId = link.comment_id;
  const removed = await deps.db
    .transaction()
    .execute((trx) => removeCustomerCommentFromChannel(trx, deps, { ticketId: link.ticket_id, commentId }));
  return removed ? 'comment_deleted' : 'ignored:comment_gone';
}
