import type { Static } from '@sinclair/typebox';
import type { ModelMessage } from 'ai';
import { readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { findLiveAgent, requireAgent } from '../agents/agent.lookup.js';
import type { AgentRow } from '../agents/agent.repository.js';
import type { toMessage } from '../chats/chat.presenter.js';
import type { CreateMessageSchema } from '../chats/chat.schemas.js';
import { addMessage, listConversationOfThread, requireThread } from '../chats/chat.service.js';
import { requireVisibleRun } from './agent-run.lookup.js';
import { type FinishedRun, toRun } from './agent-run.presenter.js';
import { failAbandoned, failRun, failRunIn, settle } from './agent-run.record.js';
import {
  type AgentRunRow,
  findActiveRunOfThread,
  findRun,
  insertRun,
  listQueuedRunsBefore,
  listQueuedUserMessageIds,
  lockThread,
  updateRunIf,
} from './agent-run.repository.js';
import type { AgentRunTrigger } from './agent-run.table.js';
import { type AgentRuntime, agentRuntimeOf, LEASE_MS } from './agent-runtime.js';
import { settingsOf } from './agent-settings.js';
import { agentRuns, executeSegment, type PendingApproval } from './run-executor.js';
import { principalColumns, type RunPrincipal } from './run-principal.js';
import { announceRejected, rejectedOutcome } from './run-rejection.js';

/** How often a queued run looks whether its turn came, when no run of this process told it. */
const QUEUE_POLL_MS = 500;
/** The thread messages a run shows the model, at most (the latest). */
const HISTORY_MESSAGES = 50;

const nowOf = (runtime: AgentRuntime) => runtime.deps.clock.now();
const _budgetedRun = (run: AgentRunRow) => ({ runId: run.id, agentId: run.agent_id, organizationId: run.organization_id });
const leaseUntil = (runtime: AgentRuntime) => new Date(nowOf(runtime).getTime() + LEASE_MS).toISOString();

// ---------------------------------------------------------------------------------------------
// Starting runs

/** What a run is started with (see `startRun`). */
export interface StartRunInput {
  organizationId: string;
  agentId: string;
  /** The user whose permissions the agent acts with (tools see it as `actingUserId`). */
  actingUserId: string;
  /** Whom the run acts for; the acting user when left out. */
  principal?: RunPrincipal;
  /** A chat thread of the agent: the input is posted there as the user's message and the answer follows it. */
  threadId: string | null;
  ticketId: string | null;
  trigger: AgentRunTrigger;
  input: string;
  /** Said to the model after the agent's own instructions, for this run only (a ticket's situation). */
  instructions?: string;
}

/**
 * The service-level entry for runs that no chat request starts (agents on tickets): records a run
 * and executes it in this process, resolving once it ends with the run as
 * `GET /api/v1/agents/{agent_id}/runs/{run_id}` shows it:
 * - `status`: `succeeded` (`final_text` is the answer), `failed` (`error` says why: no model,
 *   provider errors after retries, timeouts, budget, max_steps, server stopping), or
 *   `awaiting_approval` (a tool marked `require_approval` was called: `pending_approval` lists the
 *   calls; `POST …/runs/{run_id}/approve` continues it later, outside this promise, and `/reject`
 *   ends it as `rejected`);
 * - `tool_calls`: every call with `tool_name`, `arguments`, `result` (capped at 32 kB) or `error`,
 *   `start_time`, `end_time`; `steps`, tokens, `cost`, `latency_ms`.
 * It never rejects for anything the run meets; it rejects only with `AppError` NOT_FOUND for an agent
 * (or thread) not of the organization. With a `threadId`, the run takes its turn in the thread's
 * queue like a chat message and writes its answer there; without, nothing is written but the run.
 */
export async function startRun(deps: AppDeps, input: StartRunInput): Promise<FinishedRun> {
  const runtime = agentRuntimeOf(deps);
  const agent = await findLiveAgent(deps.db, input.organizationId, input.agentId);
  if (!agent) {
    throw AppError.notFound('Agent not found');
  }
  if (input.threadId) {
    const principal: Principal = { organizationId: input.organizationId, userId: input.actingUserId, userType: 'ORG_MEMBER' };
    const started = await startChatRun(
      runtime,
      principal,
      agent.id,
      input.threadId,
      { role: 'user', content: input.input },
      {
        force: true,
        trigger: input.trigger,
        ticketId: input.ticketId,
        instructions: input.instructions,
      },
    );
    return (await started?.finished) ?? Promise.reject(AppError.notFound('Chat thread not found'));
  }
  const row = newRun(runtime, agent, { ...input, userMessageId: null });
  await insertRun(deps.db, row);
  return track(runtime, driveRun(runtime, row.id, { instructions: input.instructions }));
}

/** A queued run's row, held by this process (see `startRun`, `startVisitorRun`). */
export function newRun(
  runtime: AgentRuntime,
  agent: AgentRow,
  input: Omit<StartRunInput, 'organizationId' | 'agentId'> & { userMessageId: string | null },
): AgentRunRow {
  const at = nowOf(runtime).toISOString();
  return {
    id: runtime.deps.ids.uuid(),
    organization_id: agent.organization_id,
    agent_id: agent.id,
    thread_id: input.threadId,
    ticket_id: input.ticketId,
    acting_user_id: input.actingUserId,
    ...principalColumns(input.principal ?? { type: 'user', userId: input.actingUserId }),
    handoff_reason: null,
    reserved_tokens: 0,
    reserved_period: null,
    trigger: input.trigger,
    sort_key: runtime.deps.ids.ulid(),
    status: 'queued',
    input: input.input,
    user_message_id: input.userMessageId,
    result_message_id: null,
    model_provider_id: null,
    model: null,
    steps: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost: null,
    latency_ms: null,
    error: null,
    final_text: null,
    tool_calls: null,
    pending_approval: null,
    conversation: null,
    lease_owner: runtime.owner,
    lease_expires_at: leaseUntil(runtime),
    created_at: at,
    started_at: null,
    finished_at: null,
    updated_at: at,
  };
}

/** Work the app waits for when it closes. */
export function track<T>(runtime: AgentRuntime, work: Promise<T>): Promise<T> {
  runtime.tasks.add(work);
  const untrack = () => runtime.tasks.delete(work);
  work.then(untrack, untrack);
  return work;
}

export interface StartedChatRun {
  runId: string;
  userMessage: ReturnType<typeof toMessage>;
  finished: Promise<FinishedRun>;
}

/**
 * A user's message to the thread and its run, written in one transaction; the run is then driven
 * in the background (the caller may wait for it, stream it, or go away). Null when the agent does
 * not run (inactive, or no model anywhere): the message is then stored as it always was.
 */
export async function startChatRun(
  runtime: AgentRuntime,
  principal: Principal,
  agentId: string,
  threadId: string,
  input: Static<typeof CreateMessageSchema>,
  options: { force?: boolean; trigger?: AgentRunTrigger; ticketId?: string | null; instructions?: string } = {},
): Promise<StartedChatRun | null> {
  const agent = await requireAgent(runtime.deps.db, principal, agentId);
  await requireThread(runtime.deps.db, principal, agentId, threadId);
  if (!options.force && !agentRuns(runtime, agent, settingsOf(agent))) {
    return null;
  }
  let runId = '';
  const userMessage = await addMessage(runtime.deps, principal, agentId, threadId, input, async (trx, message) => {
    const row = newRun(runtime, agent, {
      actingUserId: principal.userId,
      threadId,
      ticketId: options.ticketId ?? null,
      trigger: options.trigger ?? 'chat',
      input: input.content,
      userMessageId: message.id,
    });
    runId = row.id;
    await insertRun(trx, row);
  });
  runtime.publish(runId, { event: 'run', data: { run_id: runId, status: 'queued' } });
  const finished = track(runtime, driveRun(runtime, runId, { instructions: options.instructions }));
  return { runId, userMessage, finished };
}

// ---------------------------------------------------------------------------------------------
// Driving a run: its turn, its execution, its record

type Decision = { approved: boolean; reason: string | null };

/**
 * Takes the run's turn (queued runs of a thread go one at a time, in order, whichever process
 * holds them), executes it under a renewed lease, and writes what it came to. Resolves with the
 * run as stored; never rejects for what the run meets.
 */
export async function driveRun(
  runtime: AgentRuntime,
  runId: string,
  options: { decision?: Decision; instructions?: string },
): Promise<FinishedRun> {
  try {
    if (!options.decision && !(await awaitTurn(runtime, runId))) {
      return await finalRun(runtime, runId);
    }
    await executeClaimed(runtime, runId, options);
    return await finalRun(runtime, runId);
  } catch (error) {
    runtime.deps.log.error({ err: error, runId }, 'agent run failed unexpectedly');
    await failRun(runtime, runId, ['queued', 'running'], 'The run failed unexpectedly (see the server log)').catch(
      () => undefined,
    );
    return finalRun(runtime, runId);
  } finally {
    runtime.publish(runId, { event: 'done', data: await doneData(runtime, runId) });
    runtime.release(runId);
  }
}

async function doneData(runtime: AgentRuntime, runId: string) {
  const row = await findRun(runtime.deps.db, runId).catch(() => undefined);
  return { run_id: runId, status: row?.status ?? 'failed', error: row?.error ?? null };
}

async function finalRun(runtime: AgentRuntime, runId: string): Promise<FinishedRun> {
  const row = await findRun(runtime.deps.db, runId);
  if (!row) {
    throw new Error(`run ${runId} vanished`);
  }
  return toRun(row);
}

type Claim = 'claimed' | 'wait' | 'gone';

/** Waits until the run holds its thread; false when it ended meanwhile (failed, or taken over). */
async function awaitTurn(runtime: AgentRuntime, runId: string): Promise<boolean> {
  for (;;) {
    if (runtime.closing) {
      await failRun(runtime, runId, ['queued'], 'The server stopped before the run’s turn came');
      return false;
    }
    const claim = await claimTurn(runtime, runId);
    if (claim !== 'wait') {
      return claim === 'claimed';
    }
    const run = await findRun(runtime.deps.db, runId);
    await runtime.turnEnded(run?.thread_id ?? runId, QUEUE_POLL_MS);
    const renewed = await updateRunIf(
      runtime.deps.db,
      runId,
      { statuses: ['queued'], leaseOwner: runtime.owner },
      { lease_expires_at: leaseUntil(runtime) },
    );
    if (!renewed) {
      return false;
    }
  }
}

/**
 * One try at the run's turn, under the thread's row lock: the thread must be free (a run whose
 * process stopped vouching for it is failed first) and no earlier queued run may be waiting. A
 * run behind one paused for an approval fails at once: the approval may take days.
 */
async function claimTurn(runtime: AgentRuntime, runId: string): Promise<Claim> {
  const { db } = runtime.deps;
  return db.transaction().execute(async (trx) => {
    const run = await findRun(trx, runId);
    if (run?.thread_id) {
      await lockThread(trx, run.thread_id);
    }
    const current = await findRun(trx, runId);
    if (current?.status !== 'queued' || current.lease_owner !== runtime.owner) {
      return 'gone';
    }
    const now = nowOf(runtime).toISOString();
    if (current.thread_id) {
      const active = await findActiveRunOfThread(trx, current.thread_id);
      if (active?.status === 'awaiting_approval') {
        if (await failRunIn(trx, runtime, current, ['queued'], waitingForApproval(active.id))) {
          runtime.deps.metrics.aiRunEnded('failed');
        }
        return 'gone';
      }
      if (active && (active.lease_expires_at ?? '') < now) {
        await failAbandoned(trx, runtime, active.id);
      } else if (active) {
        return 'wait';
      }
      for (const earlier of await listQueuedRunsBefore(trx, current.thread_id, current.sort_key)) {
        if ((earlier.lease_expires_at ?? '') >= now) {
          return 'wait';
        }
        await failAbandoned(trx, runtime, earlier.id);
      }
    }
    const claimed = await updateRunIf(
      trx,
      runId,
      { statuses: ['queued'], leaseOwner: runtime.owner },
      { status: 'running', lease_expires_at: leaseUntil(runtime), started_at: now, updated_at: now },
    );
    return claimed ? 'claimed' : 'gone';
  });
}

const waitingForApproval = (runId: string) =>
  `The thread is waiting for a decision on a tool call of run ${runId}: approve or reject it, then send the message again`;

/** Executes a run this process holds (`running`, its lease ours) until it ends or pauses, and records it. */
async function executeClaimed(runtime: AgentRuntime, runId: string, options: { decision?: Decision; instructions?: string }) {
  const { db } = runtime.deps;
  const run = await findRun(db, runId);
  if (run?.status !== 'running' || run.lease_owner !== runtime.owner) {
    return;
  }
  runtime.publish(runId, { event: 'run', data: { run_id: runId, status: 'running' } });
  const agent = await findLiveAgent(db, run.organization_id, run.agent_id);
  if (!agent) {
    await failRun(runtime, runId, ['running'], 'The agent was deleted');
    return;
  }
  const settings = settingsOf(agent);
  const controller = new AbortController();
  runtime.active.set(runId, controller);
  const timer = setTimeout(
    () => controller.abort(new Error(`The run timed out after ${settings.runTimeoutMs / 1000} s (run_timeout_seconds)`)),
    settings.runTimeoutMs,
  );
  const heartbeat = setInterval(() => {
    void updateRunIf(db, runId, { statuses: ['running'], leaseOwner: runtime.owner }, { lease_expires_at: leaseUntil(runtime) })
      .then((held) => {
        if (!held) {
          controller.abort(new Error('The run was taken over: this process lost its lease'));
        }
      })
      .catch(() => undefined);
  }, LEASE_MS / 3);
  heartbeat.unref();
  const started = performance.now();
  try {
    const outcome =
      options.decision && !options.decision.approved
        ? announceRejected(runtime, rejectedOutcome(run, options.decision, nowOf(runtime).toISOString()), runId)
        : await executeSegment({
            runtime,
            run,
            agent,
            settings,
            messages: await conversationOf(runtime, run, options.decision),
            signal: controller.signal,
            instructions: options.instructions,
          });
    await settle(runtime, run, agent, settings, outcome, Math.round(performance.now() - started));
  } finally {
    clearTimeout(timer);
    clearInterval(heartbeat);
    runtime.active.delete(runId);
    if (run.thread_id) {
      runtime.wakeThread(run.thread_id);
    }
  }
}

interface StoredMetadata {
  approval_request?: unknown;
  run_error?: unknown;
}

/**
 * What the model is shown: a paused run's own conversation with the decision added, or the
 * thread's conversation so far (its answers and the users' messages, without approval requests
 * and failures, and without the messages of runs still queued), ending with this run's message.
 */
async function conversationOf(runtime: AgentRuntime, run: AgentRunRow, decision: Decision | undefined): Promise<ModelMessage[]> {
  const paused = readJson<ModelMessage[]>(run.conversation);
  if (paused && decision) {
    const pending = readJson<PendingApproval[]>(run.pending_approval) ?? [];
    return [
      ...paused,
      {
        role: 'tool',
        content: pending.map((call) => ({
          type: 'tool-approval-response' as const,
          approvalId: call.approval_id,
          approved: decision.approved,
          ...(decision.reason ? { reason: decision.reason } : {}),
        })),
      },
    ];
  }
  if (!run.thread_id) {
    return [{ role: 'user', content: run.input }];
  }
  const rows = await listConversationOfThread(runtime.deps.db, run.thread_id);
  // Messages still waiting for their own runs are not part of this one's conversation.
  const later = new Set(await listQueuedUserMessageIds(runtime.deps.db, run.thread_id));
  const messages: ModelMessage[] = [];
  for (const row of rows) {
    if (row.id === run.user_message_id || later.has(row.id)) {
      continue;
    }
    const metadata = readJson<StoredMetadata>(row.metadata) ?? {};
    if (row.role === 'user') {
      messages.push({ role: 'user', content: row.content });
    } else if (row.role === 'assistant' && !metadata.approval_request && !metadata.run_error && row.content) {
      messages.push({ role: 'assistant', content: row.content });
    }
  }
  return [...messages.slice(-(HISTORY_MESSAGES - 1)), { role: 'user', content: run.input }];
}

/**
 * A person's decision on the tool calls a run paused for: approved, the run continues in this
 * process (the calls run and the model goes on); rejected, the run ends as `rejected` with the
 * calls recorded as declined, and the model is not asked again. Only one decision takes: the run
 * is claimed from `awaiting_approval` by a conditional update.
 */
export async function decideApproval(
  runtime: AgentRuntime,
  principal: Principal,
  agentId: string,
  runId: string,
  decision: Decision,
): Promise<{ runId: string; finished: Promise<FinishedRun> }> {
  const run = await requireVisibleRun(runtime.deps.db, principal, agentId, runId);
  const now = nowOf(runtime).toISOString();
  const claimed = await updateRunIf(
    runtime.deps.db,
    run.id,
    { statuses: ['awaiting_approval'] },
    { status: 'running', lease_owner: runtime.owner, lease_expires_at: leaseUntil(runtime), updated_at: now },
  );
  if (!claimed) {
    throw AppError.conflict(
      `Run is ${run.status === 'awaiting_approval' ? 'already being decided' : run.status}, not awaiting approval`,
    );
  }
  // The pause's events (its `done` among them) are not this stretch's.
  runtime.reopen(run.id);
  runtime.publish(run.id, { event: 'run', data: { run_id: run.id, status: 'running' } });
  return { runId: run.id, finished: track(runtime, driveRun(runtime, run.id, { decision })) };
}
