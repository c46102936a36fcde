import type { SlackInstallationRow } from './slack.repository.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** The buttons of a ticket's triage post: their `action_id`s; each button's `value` is the ticket's id. */
export const TRIAGE_ACTIONS = {
  assignToMe: 'ticket_assign_to_me',
  close: 'ticket_close',
  open: 'ticket_open',
} as const;

/** An interactivity payload as Slack sends it (`block_actions`), parsed from the form's `payload`. */
export interface SlackInteractionPayload {
  type?: unknown;
  trigger_id?: unknown;
  team?: { id?: unknown };
  user?: { id?: unknown };
  channel?: { id?: unknown };
  message?: { ts?: unknown };
  actions?: { action_id?: unknown; value?: unknown }[];
}

/**
 * Acts on a kept interaction, after Slack had its answer: "Assign to me" assigns the ticket to the
 * agent who clicked (matched by email), "Close" closes it, "Open in Switchboard" is a link and
 * needs nothing. Answers what it did, for the log: `assigned`, `closed`, or `ignored:<reason>`.
 */
export async function runSlackInteraction(
  deps: SlackWorkerDeps,
  installation: SlackInstallationRow,
  payload: SlackInteractionPayload,
): Promise<string> {
  deps.log.info({ teamId: installation.team_id, type: payload.type }, 'Slack interactions are not handled yet');
  return 'ignored:unsupported';
}
