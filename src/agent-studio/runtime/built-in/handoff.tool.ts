import { Type } from '@sinclair/typebox';
import type { RoutingExplanation } from '../../../platform/routing/routing.pipeline.js';
import { findDecision, rerouteTicketInTransaction } from '../../../platform/routing/routing.service.js';
import { addCommentInTransaction, prepareComment } from '../../../platform/tickets/comment.service.js';
import { loadHtmlConverters } from '../../../platform/tickets/comment-content.js';
import { getTicket } from '../../../platform/tickets/ticket.service.js';
import { findTicketAccessOfViewer, findTicketOfOrganization } from '../../../platform/tickets/ticket-rows.service.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool, requireAllowedTeam, ticketOfCall } from './built-in-tool.js';
import { TicketIdArgument } from './ticket-read.tools.js';

const HandoffArguments = Type.Object(
  {
    ticket_id: Type.Optional(TicketIdArgument),
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Why a person should take over: what you could not answer or do, and what you already found',
    }),
  },
  { additionalProperties: false },
);

/** What became of the ticket, in a sentence for the note, the model and so the customer. */
function outcomeSentence(explanation: RoutingExplanation): string {
  switch (explanation.outcome) {
    case 'assigned':
    case 'explicit_agent':
      return `It is now assigned to ${explanation.agentName ?? 'an agent'} of team ${explanation.teamName}.`;
    case 'manual':
      return `Team ${explanation.teamName} assigns its tickets by hand: it waits there for a person to take it.`;
    case 'team_closed':
      return `Team ${explanation.teamName} is outside its working hours: it goes to the first agent available when the team opens.`;
    case 'no_eligible_agent':
      return `No agent of team ${explanation.teamName} is available right now: it goes to the first one who is.`;
  }
}

/**
 * Routes the ticket again through the routing engine (its rules, then the team's assignment, as
 * `POST /v1/tickets/{id}/reroute` does) and writes the agent's internal note saying why and to
 * whom, in one transaction: both happen, or neither.
 */
async function handOff(args: { ticket_id?: string; reason: string }, call: BuiltInCall<{ team_ids?: string[] }>) {
  const { context, principal, configuration } = call;
  const { deps } = context;
  const visible = await getTicket(deps.db, principal, ticketOfCall(args.ticket_id, context));
  requireAllowedTeam(configuration, visible.teamId);
  const agent = await call.agent();
  // The HTML converters of the note, loaded before the transaction holds the ticket's row.
  await loadHtmlConverters();
  context.signal.throwIfAborted();
  const result = await deps.db.transaction().execute(async (trx) => {
    const { ticketId, decisionId } = await rerouteTicketInTransaction(trx, deps, principal, visible.id, { byAgent: true });
    const explanation = await findDecision(trx, decisionId);
    // Read without the visibility check: routing may have moved it to a team the acting user cannot see.
    const ticket = await findTicketOfOrganization(trx, principal.organizationId, ticketId);
    const access = await findTicketAccessOfViewer(trx, principal.organizationId, ticketId, principal.userId);
    if (!explanation || !ticket || !access) {
      throw new Error(`ticket ${ticketId} or its routing decision cannot be read back`);
    }
    const outcome = outcomeSentence(explanation);
    const input = {
      content: `Handed off to a human by ${agent.name}.\n\nReason: ${args.reason}\n\n${outcome}`,
      commentType: 'note' as const,
      commentVisibility: 'private' as const,
      metadata: { agentId: context.agentId, runId: context.runId, handoff: true, routingDecisionId: decisionId },
    };
    const { comment } = await addCommentInTransaction(trx, deps, principal, access, input, {
      ...(await prepareComment(input)),
      agent,
    });
    return { ticket, explanation, outcome, noteId: comment.id };
  });
  return {
    handed_off: true,
    ticket: { id: result.ticket.id, identifier: result.ticket.ticket_identifier },
    team: result.explanation.teamName,
    assigned_to: result.explanation.agentId ? { id: result.explanation.agentId, name: result.explanation.agentName } : null,
    outcome: result.outcome,
    note_id: result.noteId,
    message: `The ticket ${result.ticket.ticket_identifier} was handed off to the support team. ${result.outcome} Tell the customer a person will follow up.`,
  };
}

export function handoffToHumanTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Hands a support ticket over to a human agent: the routing engine assigns it, and an internal note records why. ' +
        'Use it when you cannot answer from the knowledge base, the customer asks for a person, or the request needs a human decision.',
      arguments: HandoffArguments,
      run: handOff,
    },
    configuration,
  );
}
