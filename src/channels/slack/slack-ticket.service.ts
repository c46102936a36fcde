import type { WebClient } from '@slack/web-api';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { storableText } from '../../lib/storable-text.js';
import { storeReceivedFiles } from '../../platform/attachments/attachment.service.js';
import { deriveCommentContent } from '../../platform/tickets/comment-content.js';
import { addCustomerComment } from '../../platform/tickets/comment-inbound.service.js';
import { addQuietInternalNote } from '../../platform/tickets/comment-notes.service.js';
import { findLiveTicketAccess } from '../../platform/tickets/ticket.lookup.js';
import { createTicketInTransaction } from '../../platform/tickets/ticket-create.service.js';
import type { SlackInstallationRow } from './slack.repository.js';
import { insertSlackTicketThread, linkSlackMessage, type SlackChannelRow } from './slack-channel.repository.js';
import type { DownloadedFiles } from './slack-files.js';
import { contactOfSlackPerson, type SlackPerson } from './slack-people.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** Filing Slack messages as tickets and comments, through the domain's services, in the caller's transaction. */

/** What filing a customer's Slack message needs: where it was written, by whom, with what. */
export interface SlackFiling {
  deps: SlackWorkerDeps;
  installation: SlackInstallationRow;
  channel: SlackChannelRow;
  person: SlackPerson;
  text: string;
  files: DownloadedFiles;
  /** Storage keys written, for the caller to discard when the transaction fails. */
  written: string[];
}

const TITLE_MAX = 500;
const DESCRIPTION_MAX = 100_000;

/** Slack's markup made readable: `<@U1>` → `@U1`, `<https://x|label>` → `label`, `<#C1|name>` → `#name`. */
export function plainSlackText(text: string): string {
  return text
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, '#$1')
    .replace(/<@([A-Z0-9]+)(\|[^>]*)?>/g, '@$1')
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The first line of what the customer wrote, as a ticket title within the API's 500 characters. */
export function slackTicketTitle(text: string): string {
  const line =
    plainSlackText(text)
      .split('\n')
      .map((each) => each.replace(/\s+/g, ' ').trim())
      .find((each) => each !== '') ?? '';
  const characters = [...storableText(line)];
  if (characters.length === 0) {
    return '(no text)';
  }
  return characters.length <= TITLE_MAX ? line : `${characters.slice(0, TITLE_MAX - 1).join('')}…`;
}

/** A comment's text: what the customer wrote, and each file left out and why (never empty). */
export function slackCommentText(text: string, files: DownloadedFiles): string {
  const said = storableText(plainSlackText(text).trim().slice(0, DESCRIPTION_MAX));
  const skipped = files.skipped.map((each) => `(file skipped: ${each})`);
  const attached = files.files.length > 0 ? [`(${files.files.length} file${files.files.length === 1 ? '' : 's'})`] : [];
  return [said, ...skipped].filter(Boolean).join('\n\n') || attached[0] || '(no text)';
}

/** Slack's link to a message, for the ticket's metadata; none when Slack will not say. */
export async function permalinkOf(client: WebClient, channelId: string, messageTs: string): Promise<string | null> {
  try {
    return (await client.chat.getPermalink({ channel: channelId, message_ts: messageTs })).permalink ?? null;
  } catch {
    return null;
  }
}

/**
 * A new ticket of a customer's request: its contact (joined to the channel's account), the ticket
 * (`source: 'slack'`, in the channel's team and account, its thread in the metadata), the thread
 * row, a link per message, the internal note saying why it is a ticket, and its files on a comment.
 */
export async function createSlackTicket(
  trx: Transaction<DB>,
  filing: SlackFiling,
  thread: { teamId: string; threadTs: string; messageTss: readonly string[]; permalink: string | null; note: string },
): Promise<string> {
  const { deps, installation, channel, person } = filing;
  const organizationId = installation.organization_id;
  const contact = await contactOfSlackPerson(
    trx,
    deps,
    { organizationId, teamId: installation.team_id, accountId: channel.account_id, channelName: channel.name },
    person,
  );
  const ticketId = await createTicketInTransaction(
    trx,
    deps,
    {
      organizationId,
      userId: null,
      createdById: installation.installed_by,
      actor: { type: 'customer_contact', id: contact.id },
      skipMandatoryFields: true,
    },
    {
      title: slackTicketTitle(filing.text),
      description: storableText(plainSlackText(filing.text).trim().slice(0, DESCRIPTION_MAX)) || null,
      teamId: thread.teamId,
      requestorEmail: contact.email,
      source: 'slack',
      accountId: channel.account_id,
      metadata: { slack: { channelId: channel.channel_id, threadTs: thread.threadTs, permalink: thread.permalink } },
    },
  );
  const at = deps.clock.now().toISOString();
  await insertSlackTicketThread(trx, {
    ticket_id: ticketId,
    organization_id: organizationId,
    channel_id: channel.channel_id,
    thread_ts: thread.threadTs,
    created_at: at,
  });
  for (const messageTs of new Set(thread.messageTss)) {
    await linkMessage(trx, filing, { ticketId, messageTs, commentId: null });
  }
  await addQuietInternalNote(trx, deps, { organizationId, ticketId, authorId: installation.installed_by, text: thread.note, at });
  if (filing.files.files.length > 0 || filing.files.skipped.length > 0) {
    const ticket = (await findLiveTicketAccess(trx, organizationId, ticketId)) ?? {
      id: ticketId,
      team_id: thread.teamId,
      is_private: false,
    };
    const attachmentIds = await storeReceivedFiles(
      trx,
      deps,
      { organizationId, uploadedById: installation.installed_by },
      filing.files.files,
      filing.written,
    );
    await addCustomerComment(trx, deps, {
      organizationId,
      ticket,
      contactId: contact.id,
      content: await deriveCommentContent({ content: slackCommentText('', filing.files) }),
      attachmentIds,
      sourceEmailId: null,
      isReply: false,
    });
  }
  return ticketId;
}

/** Links a message to its ticket; throws when another handling of the same event linked it first (its transaction then rolls back). */
async function linkMessage(
  trx: Transaction<DB>,
  filing: SlackFiling,
  link: { ticketId: string; messageTs: string; commentId: string | null },
): Promise<void> {
  const linked = await linkSlackMessage(trx, {
    id: filing.deps.ids.ulid(),
    organization_id: filing.installation.organization_id,
    channel_id: filing.channel.channel_id,
    message_ts: link.messageTs,
    ticket_id: link.ticketId,
    comment_id: link.commentId,
    direction: 'inbound',
    created_at: filing.deps.clock.now().toISOString(),
  });
  if (!linked) {
    throw new Error(`Slack message ${link.messageTs} is already filed`);
  }
}

/**
 * A customer's message on a ticket (a reply in its thread, or a further message of its group): a
 * customer comment with its files, as a customer's reply (it reopens a closed ticket), linked so
 * an edit or a deletion in Slack finds it. Answers the comment's id, or null when the ticket is gone.
 */
export async function addSlackComment(
  trx: Transaction<DB>,
  filing: SlackFiling,
  /** `messageTs` null: the comment stands for no message of its own (an edit of the request's message). */
  where: { ticketId: string; messageTs: string | null },
): Promise<string | null> {
  const { deps, installation, channel, person } = filing;
  const organizationId = installation.organization_id;
  const ticket = await findLiveTicketAccess(trx, organizationId, where.ticketId);
  if (!ticket) {
    return null;
  }
  const contact = await contactOfSlackPerson(
    trx,
    deps,
    { organizationId, teamId: installation.team_id, accountId: channel.account_id, channelName: channel.name },
    person,
  );
  const attachmentIds = await storeReceivedFiles(
    trx,
    deps,
    { organizationId, uploadedById: installation.installed_by },
    filing.files.files,
    filing.written,
  );
  const commentId = await addCustomerComment(trx, deps, {
    organizationId,
    ticket,
    contactId: contact.id,
    content: await deriveCommentContent({ content: slackCommentText(filing.text, filing.files) }),
    attachmentIds,
    sourceEmailId: null,
    isReply: true,
  });
  if (where.messageTs !== null) {
    await linkMessage(trx, filing, { ticketId: ticket.id, messageTs: where.messageTs, commentId });
  }
  return commentId;
}
