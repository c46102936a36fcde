import { readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import { getTicket } from '../../platform/tickets/ticket.service.js';
import { findAgentById } from '../agents/agent.repository.js';
import { type FinishedRun, startRun } from '../runtime/agent-run.service.js';
import { agentRuntimeOf } from '../runtime/agent-runtime.js';
import { actingPrincipal } from '../runtime/built-in/built-in-tool.js';
import { builtInRuntimeTool } from '../runtime/built-in-runtime-tools.js';
import { foundInKnowledgeBase } from '../runtime/run-tools.js';
import type { ToolCallContext } from '../runtime/runtime-tool.js';
import { findEvent, type TicketAgentJobRow } from './ticket-agent.repository.js';
import { TicketAgentInterrupted, type TicketAgentOutcome } from './ticket-agent.worker.js';

/** What the agent answers when it has no answer: the job then hands the ticket off (auto) or says so (draft). */
const NO_ANSWER = 'HANDOFF';

const INSTRUCTIONS = {
  draft: (identifier: string) =>
    `You are drafting a reply to the customer of ticket ${identifier} for a human agent, who reviews it before anything is sent. ` +
    'Search the knowledge base (and use your other tools) to find the answer. Answer with the reply itself, ready to send, ' +
    `citing the links of the articles it comes from. If you find no answer, answer with exactly ${NO_ANSWER}.`,
  auto: (identifier: string) =>
    `You are answering the customer of ticket ${identifier} directly; your answer is emailed to them as it is. ` +
    'Answer only with what the published help-center articles say: search the knowledge base first, and cite the links ' +
    `of the articles you used. If the articles do not answer the question, answer with exactly ${NO_ANSWER} and nothing else: ` +
    'a person will take over.',
};

/** The customer's words the agent answers: the new ticket, or the reply. */
function inputOf(type: string, data: Record<string, unknown> | null, ticket: { ticketIdentifier: string; title: string }) {
  if (type === 'ticket.created') {
    const description = typeof data?.description === 'string' ? data.description : '';
    return `A customer opened ticket ${ticket.ticketIdentifier}: "${ticket.title}".\n\n${description}`.trim();
  }
  const content = typeof data?.content === 'string' ? data.content : '';
  return `The customer replied on ticket ${ticket.ticketIdentifier} ("${ticket.title}"):\n\n${content}`.trim();
}

/** Writes to the ticket through the built-in tool of that name, as the agent (AI_AGENT author, routing for handoffs). */
async function act(tool: 'add_internal_note' | 'reply_to_customer' | 'handoff_to_human', args: object, context: ToolCallContext) {
  const runtimeTool = builtInRuntimeTool(tool, {});
  if (!runtimeTool) {
    throw new Error(`The built-in tool ${tool} is missing`);
  }
  return runtimeTool.execute(args, context);
}

/**
 * Works one job: runs the team's agent on the ticket, acting for the agent's creator, with the
 * agent's own tools (but none writing to tickets) and the knowledge-base search. Then, as the
 * team's mode says: `draft` writes the answer as an internal note; `auto` replies to the customer
 * when the answer rests on an article the run found, and hands the ticket to a human otherwise
 * (also when the run failed, so no customer waits on an agent that cannot answer).
 */
export async function respondToTicket(deps: AppDeps, job: TicketAgentJobRow, signal: AbortSignal): Promise<TicketAgentOutcome> {
  const agent = await findAgentById(deps.db, job.organization_id, job.agent_id);
  if (!agent) {
    throw new Error('The team’s agent no longer exists');
  }
  const event = await findEvent(deps.db, job.organization_id, Number(job.event_seq));
  if (!event) {
    throw new Error('The event was pruned from the log before the agent could answer it');
  }
  const context: Omit<ToolCallContext, 'runId'> = {
    deps,
    organizationId: job.organization_id,
    actingUserId: agent.created_by_id,
    agentId: agent.id,
    threadId: null,
    ticketId: job.ticket_id,
    signal,
  };
  const ticket = await getTicket(deps.db, await actingPrincipal(context), job.ticket_id);
  const run = await startRun(deps, {
    organizationId: job.organization_id,
    agentId: agent.id,
    actingUserId: agent.created_by_id,
    threadId: null,
    ticketId: job.ticket_id,
    trigger: 'ticket',
    input: inputOf(event.type, readJson<Record<string, unknown>>(event.data), ticket),
    instructions: INSTRUCTIONS[job.mode](ticket.ticketIdentifier),
  });
  if (run.status === 'failed' && (signal.aborted || agentRuntimeOf(deps).closing)) {
    throw new TicketAgentInterrupted(run.error ?? 'The server stopped while the agent was answering');
  }
  const runContext: ToolCallContext = { ...context, runId: run.id };
  return { runId: run.id, outcome: await actOnRun(job.mode, run, runContext) };
}

async function actOnRun(mode: TicketAgentJobRow['mode'], run: FinishedRun, context: ToolCallContext) {
  if (run.status === 'awaiting_approval') {
    return { action: 'awaiting_approval' };
  }
  const answer = (run.final_text ?? '').trim();
  const hasAnswer = run.status === 'succeeded' && answer !== '' && !answer.startsWith(NO_ANSWER);
  if (mode === 'draft') {
    if (run.status === 'failed') {
      throw new Error(`The agent could not draft a reply: ${run.error ?? 'its run failed'}`);
    }
    const content = hasAnswer
      ? `Suggested reply (not sent to the customer):\n\n${answer}`
      : 'No suggested reply: the agent found no answer in the knowledge base.';
    const note = (await act('add_internal_note', { content }, context)) as { comment_id: string };
    return { action: hasAnswer ? 'drafted' : 'no_answer', comment_id: note.comment_id };
  }
  const grounded = run.tool_calls.some(foundInKnowledgeBase);
  if (hasAnswer && grounded) {
    const reply = (await act('reply_to_customer', { content: answer }, context)) as { comment_id: string };
    return { action: 'replied', comment_id: reply.comment_id };
  }
  const reason =
    run.status === 'failed'
      ? `The agent could not answer: ${run.error ?? 'its run failed'}`
      : hasAnswer
        ? 'The agent’s answer did not rest on any published article, so it was not sent.'
        : 'The knowledge base does not answer this question.';
  await act('handoff_to_human', { reason }, context);
  return { action: 'handed_off', reason };
}
