import type { SlackInstallationRow } from './slack.repository.js';
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
  deps.log.info({ reaction: input.reaction, channelId: input.channelId }, 'Slack reaction commands are not handled yet');
  return 'ignored:unsupported';
}
