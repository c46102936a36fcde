import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { updateTicketFields } from '../../platform/tickets/ticket.service.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** What an agent can do to a ticket from Slack, by a triage button or a reaction. */
export type SlackTicketCommand = 'assign' | 'close';

/** Refusals of the ticket service that mean "nothing to do here" rather than a failure to retry. */
const REFUSALS: Partial<Record<AppError['code'], string>> = {
  NOT_FOUND: 'ticket_not_found',
  VALIDATION: 'refused',
  FORBIDDEN: 'refused',
  CONFLICT: 'refused',
};

/**
 * Runs a command on a ticket as the agent, through the ticket service as a `PATCH` by them would:
 * the same rules (who may see the ticket, fields required on close), and the timeline names them.
 * A ticket they cannot see (another organization's, deleted, private to a team they are not in)
 * changes nothing. Answers what it did, for the log: `assigned`, `closed` or `ignored:<reason>`.
 */
export async function runSlackTicketCommand(
  deps: SlackWorkerDeps,
  agent: Principal,
  ticketId: string,
  command: SlackTicketCommand,
): Promise<string> {
  try {
    await updateTicketFields(
      deps,
      agent,
      ticketId,
      command === 'assign' ? { assignedAgentId: agent.userId } : { statusName: 'closed' },
    );
  } catch (error) {
    const refusal = error instanceof AppError ? REFUSALS[error.code] : undefined;
    if (!refusal) {
      throw error;
    }
    deps.log.info(
      { ticketId, userId: agent.userId, command, reason: (error as AppError).message },
      'Slack command on a ticket refused',
    );
    return `ignored:${refusal}`;
  }
  return command === 'assign' ? 'assigned' : 'closed';
}
