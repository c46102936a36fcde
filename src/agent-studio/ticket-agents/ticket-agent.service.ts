import { readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import type { Principal } from '../../lib/principal.js';
import type { Ticket } from '../../platform/tickets/ticket.presenter.js';
import { getTicket } from '../../platform/tickets/ticket.service.js';
import { findLiveAgent } from '../agents/agent.lookup.js';
import { findRunById } from '../runtime/agent-run.lookup.js';
import type { FinishedRun } from '../runtime/agent-run.presenter.js';
import { recordRunHandoff } from '../runtime/agent-run.record.js';
import { startRun } from '../runtime/agent-run.service.js';
import { agentRuntimeOf } from '../runtime/agent-runtime.js';
import { actingPrincipal } from '../runtime/built-in/built-in-tool.js';
import { builtInRuntimeTool } from '../runtime/built-in-runtime-tools.js';
import type { RunPrincipal } from '../runtime/run-principal.js';
import { foundInKnowledgeBase } from '../runtime/run-tools.js';
import type { ToolCallContext } from '../runtime/runtime-tool.js';
import { replyReachProblem } from './reply-reach.js';
import { findEvent, type TicketAgentJobRow } from './ticket-agent.repository.js';
import { TicketAgentInterrupted, type TicketAgentOutcome } from './ticket-agent.worker.js';
import { inputOf, NO_ARTICLE_REASONS } from './ticket-question.js';

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

/** Writes to the ticket through the built-in tool of that name, as the agent (AI_AGENT author, routing for handoffs). */
async function act(tool: 'add_internal_note' | 'reply_to_customer' | 'handoff_to_human', args: object, context: ToolCallContext) {
  const runtimeTool = builtInRuntimeTool(tool, {});
  if (!runtimeTool) {
    throw new Error(`The built-in tool ${tool} is missing`);
  }
  return runtimeTool.execute(args, context);
}

/** Whom a job's run acts for: the requester when it answers them itself (`auto`), the agent's creator for a draft. */
function principalOf(mode: TicketAgentJobRow['mode'], ticket: Ticket, creatorId: string): RunPrincipal {
  return mode === 'auto'
    ? { type: 'customer_contact', contactId: ticket.customerContactId }
    : { type: 'user', userId: creatorId };
}

/**
 * Works one job: runs the team's agent on the ticket with the agent's own tools (but none writing
 * to tickets) and the knowledge-base search. In `auto` mode the run acts for the ticket's
 * requester, seeing only what they may see; in `draft` mode for the agent's creator, with every
 * tool that sends anything outside held for approval. Then, as the mode says: `draft` writes the
 * answer as an internal note; `auto` replies to the customer when the answer rests on an article
 * the run found and names nothing the customer may not see, and hands the ticket to a human
 * otherwise (also when the run failed, so no customer waits on an agent that cannot answer). A
 * run paused for an approval leaves the job waiting; once the run is decided and ends, the job is
 * worked again and acts on it (`job.run_id` is then set).
 */
export async function respondToTicket(deps: AppDeps, job: TicketAgentJobRow, signal: AbortSignal): Promise<TicketAgentOutcome> {
  const agent = await findLiveAgent(deps.db, job.organization_id, job.agent_id);
  if (!agent) {
    throw new Error('The team’s agent no longer exists');
  }
  const principal = await actingPrincipal({ deps, organizationId: job.organization_id, actingUserId: agent.created_by_id });
  const ticket = await getTicket(deps.db, principal, job.ticket_id);
  const runPrincipal = principalOf(job.mode, ticket, agent.created_by_id);
  const context: Omit<ToolCallContext, 'runId'> = {
    deps,
    organizationId: job.organization_id,
    actingUserId: agent.created_by_id,
    principal: runPrincipal,
    agentId: agent.id,
    threadId: null,
    ticketId: job.ticket_id,
    signal,
  };
  const run = job.run_id ? await findRunById(deps.db, job.run_id) : await startTicketRun(deps, job, ticket, context);
  if (!run) {
    throw new Error('The agent’s run on this ticket no longer exists');
  }
  if (run.status === 'failed' && (signal.aborted || agentRuntimeOf(deps).closing)) {
    throw new TicketAgentInterrupted(run.error ?? 'The server stopped while the agent was answering');
  }
  const runContext: ToolCallContext = { ...context, runId: run.id };
  return { runId: run.id, outcome: await actOnRun(job.mode, run, runContext, { principal, ticket }) };
}

async function startTicketRun(deps: AppDeps, job: TicketAgentJobRow, ticket: Ticket, context: Omit<ToolCallContext, 'runId'>) {
  const event = await findEvent(deps.db, job.organization_id, Number(job.event_seq));
  if (!event) {
    throw new Error('The event was pruned from the log before the agent could answer it');
  }
  return startRun(deps, {
    organizationId: job.organization_id,
    agentId: job.agent_id,
    actingUserId: context.actingUserId,
    principal: context.principal,
    threadId: null,
    ticketId: job.ticket_id,
    trigger: 'ticket',
    input: inputOf(event.type, readJson<Record<string, unknown>>(event.data), ticket),
    instructions: INSTRUCTIONS[job.mode](ticket.ticketIdentifier),
  });
}

async function actOnRun(
  mode: TicketAgentJobRow['mode'],
  run: FinishedRun,
  context: ToolCallContext,
  reach: { principal: Principal; ticket: Ticket },
) {
  if (run.status === 'awaiting_approval' || run.status === 'running' || run.status === 'queued') {
    // Paused for a person's decision (or being continued after one): the job waits for the run to end.
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
      : run.status === 'rejected'
        ? `No suggested reply: a person rejected the agent's tool call (${run.error ?? 'rejected'}).`
        : 'No suggested reply: the agent found no answer in the knowledge base.';
    const note = (await act('add_internal_note', { content }, context)) as { comment_id: string };
    return { action: hasAnswer ? 'drafted' : 'no_answer', comment_id: note.comment_id };
  }
  const grounded = run.tool_calls.some(foundInKnowledgeBase);
  const reachProblem =
    hasAnswer && grounded ? await replyReachProblem(context.deps, reach.principal, reach.ticket, run, answer) : null;
  if (hasAnswer && grounded && reachProblem === null) {
    const reply = (await act('reply_to_customer', { content: answer }, context)) as { comment_id: string };
    return { action: 'replied', comment_id: reply.comment_id };
  }
  const reason =
    reachProblem ??
    (run.status === 'failed'
      ? `The agent could not answer: ${run.error ?? 'its run failed'}`
      : run.status === 'rejected'
        ? `A person rejected the agent's tool call: ${run.error ?? 'rejected'}`
        : hasAnswer
          ? NO_ARTICLE_REASONS.ungrounded
          : NO_ARTICLE_REASONS.noAnswer);
  await recordRunHandoff(context.deps, run.id, reason);
  await act('handoff_to_human', { reason }, context);
  return { action: 'handed_off', reason };
}
