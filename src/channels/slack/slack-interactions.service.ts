import type { SlackInstallationRow } from './slack.repository.js';
import { slackAgentFinder } from './slack-agents.js';
import { runSlackTicketCommand, type SlackTicketCommand } from './slack-ticket-command.js';
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
  const outcome = await actOnInteraction(deps, installation, payload);
  deps.log.info(
    { organizationId: installation.organization_id, teamId: installation.team_id, slackUserId: payload.user?.id, outcome },
    'Slack interaction handled',
  );
  return outcome;
}

/** The command a triage button stands for; the "Open in Switchboard" link needs none. */
const COMMAND_OF_ACTION: Record<string, SlackTicketCommand> = {
  [TRIAGE_ACTIONS.assignToMe]: 'assign',
  [TRIAGE_ACTIONS.close]: 'close',
};

async function actOnInteraction(
  deps: SlackWorkerDeps,
  installation: SlackInstallationRow,
  payload: SlackInteractionPayload,
): Promise<string> {
  if (payload.type !== 'block_actions') {
    return 'ignored:unsupported';
  }
  // Slack sends one action per click; anything else in the list is not a triage button's.
  // A payload is JSON from the database: read it as it is, not as its type says.
  const actions: unknown[] = Array.isArray(payload.actions) ? payload.actions : [];
  const action = actions.find(
    (each): each is { action_id: string; value?: unknown } =>
      typeof each === 'object' &&
      each !== null &&
      typeof (each as { action_id?: unknown }).action_id === 'string' &&
      Object.hasOwn(COMMAND_OF_ACTION, (each as { action_id: string }).action_id),
  );
  const command = action ? COMMAND_OF_ACTION[action.action_id] : undefined;
  if (!command || typeof action?.value !== 'string' || action.value === '') {
    return 'ignored:no_triage_action';
  }
  const slackUserId = typeof payload.user === 'object' ? payload.user?.id : undefined;
  if (typeof slackUserId !== 'string' || slackUserId === '') {
    return 'ignored:no_user';
  }
  const match = await slackAgentFinder(deps, installation)(slackUserId);
  if (!match.agent) {
    return `ignored:${match.reason}`;
  }
  return runSlackTicketCommand(deps, match.agent, action.value, command);
}
