import type { SlackInstallationRow } from './slack.repository.js';
import { slackAgentFinder } from './slack-agents.js';
import { findSlackMessageLink } from './slack-channel.repository.js';
import { findTicketIdOfSlackThreadMessage } from './slack-command.repository.js';
import { runSlackTicketCommand, type SlackTicketCommand } from './slack-ticket-command.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** A reaction an organization's person added in Slack, which may be a command on a ticket. */
export interface SlackReactionInput {
  organizationId: string;
  installation: SlackInstallationRow;
  /** Slack's name of the emoji, without colons (`eyes`, `white_check_mark`). */
  reaction: string;
  /** Who reacted (`U…`). */
  slackUserId: string;
  channelId: string;
  /** The message reacted to: a customer's message of a ticket, or a ticket's triage post. */
  messageTs: string;
}

/**
 * Runs the command a reaction stands for on the ticket of the message reacted to: 👀 (`eyes`)
 * assigns it to the reacting agent, ✅ (`white_check_mark`) closes it. Answers what it did, for the
 * log: `assigned`, `closed`, or `ignored:<reason>`.
 */
export async function runSlackReactionCommand(deps: SlackWorkerDeps, input: SlackReactionInput): Promise<string> {
  const outcome = await actOnReaction(deps, input);
  deps.log.info(
    {
      organizationId: input.organizationId,
      reaction: input.reaction,
      slackUserId: input.slackUserId,
      channelId: input.channelId,
      messageTs: input.messageTs,
      outcome,
    },
    'Slack reaction command handled',
  );
  return outcome;
}

/** The emoji that are commands, by Slack's name. */
const COMMAND_OF_REACTION: Record<string, SlackTicketCommand> = {
  eyes: 'assign',
  white_check_mark: 'close',
};

async function actOnReaction(deps: SlackWorkerDeps, input: SlackReactionInput): Promise<string> {
  const command = Object.hasOwn(COMMAND_OF_REACTION, input.reaction) ? COMMAND_OF_REACTION[input.reaction] : undefined;
  if (!command) {
    return 'ignored:not_a_command';
  }
  if (input.installation.organization_id !== input.organizationId) {
    return 'ignored:another_organization';
  }
  const ticketId = await ticketOfMessage(deps, input);
  if (!ticketId) {
    // Checked before asking Slack who reacted: a reaction on any other message costs no Web API call.
    return 'ignored:no_ticket';
  }
  const match = await slackAgentFinder(deps, input.installation)(input.slackUserId);
  if (!match.agent) {
    return `ignored:${match.reason}`;
  }
  return runSlackTicketCommand(deps, match.agent, ticketId, command);
}

/** The ticket of a message: a linked one (a customer's message, a reply, a triage post), or a thread's first message. */
async function ticketOfMessage(deps: SlackWorkerDeps, input: SlackReactionInput): Promise<string | undefined> {
  const link = await findSlackMessageLink(deps.db, input.organizationId, input.channelId, input.messageTs);
  return link?.ticket_id ?? findTicketIdOfSlackThreadMessage(deps.db, input.organizationId, input.channelId, input.messageTs);
}
