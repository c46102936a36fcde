import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import type { Metrics } from '../../lib/metrics.js';
import { storableText } from '../../lib/storable-text.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import type { AgentRow } from '../agents/agent.repository.js';
import { appendThreadMessage, findThreadMessage } from '../chats/chat.service.js';
import { costOf } from '../model-providers/model-client.js';
import { type StoredToolCall, storedCall } from './agent-run.presenter.js';
import { type AgentRunRow, findRun, listAbandonedRuns, lockThread, updateRunIf } from './agent-run.repository.js';
import type { AgentRunStatus } from './agent-run.table.js';
import type { AgentRuntime } from './agent-runtime.js';
import type { AgentSettings } from './agent-settings.js';
import type { SegmentOutcome } from './run-executor.js';
import { settleTokens } from './token-budget.js';

/**
 * What a run leaves behind: each stretch's outcome (its thread message, totals, status and event,
 * written only while the run's lease is this process's), a failure, an abandoned run failed by
 * whichever process finds it, and why a run on a ticket went to a person.
 */

const budgetedRun = (run: AgentRunRow) => ({ runId: run.id, agentId: run.agent_id, organizationId: run.organization_id });

const ABANDONED = 'The server process running this run stopped; the run was abandoned';

export async function failAbandoned(trx: Transaction<DB>, runtime: AgentRuntime, runId: string): Promise<void> {
  const run = await findRun(trx, runId);
  if (run && (await failRunIn(trx, runtime, run, ['queued', 'running'], ABANDONED, { anyOwner: true }))) {
    runtime.deps.metrics.aiRunEnded('abandoned');
  }
}

/** The chat message a stretch of a run leaves in its thread. */
function resultMessage(
  run: AgentRunRow,
  outcome: SegmentOutcome,
): { content: string; metadata: Record<string, unknown>; toolCalls: StoredToolCall[] } {
  if (outcome.status === 'awaiting_approval') {
    const pending = outcome.pending ?? [];
    const asked = pending.map((call) => `${call.tool_name} ${JSON.stringify(call.arguments ?? {})}`).join(', ');
    const pendingIds = new Set(pending.map((call) => call.tool_call_id));
    const done = outcome.toolCalls.filter((record) => !pendingIds.has(record.tool_call_id)).map(storedCall);
    const waiting = pending.map((call) => ({
      tool_name: call.tool_name,
      arguments: (call.arguments ?? null) as Record<string, unknown> | null,
      result: null,
      error: null,
      start_time: null,
      end_time: null,
    }));
    return {
      content: `${outcome.text ? `${outcome.text}\n\n` : ''}Waiting for approval to call ${asked}.`,
      metadata: {
        run_id: run.id,
        approval_request: {
          run_id: run.id,
          tool_calls: pending.map((call) => ({
            approval_id: call.approval_id,
            tool_name: call.tool_name,
            arguments: call.arguments,
          })),
        },
      },
      toolCalls: [...done, ...waiting],
    };
  }
  const calls = outcome.toolCalls.map(storedCall);
  if (outcome.status === 'rejected') {
    // Kept out of the model's history as a failure is: the thread reads it, the model never did.
    return { content: `Not done. ${outcome.error}`, metadata: { run_id: run.id, run_error: outcome.error }, toolCalls: calls };
  }
  if (outcome.status === 'failed') {
    return {
      content: `The agent could not answer: ${outcome.error}`,
      metadata: { run_id: run.id, run_error: outcome.error },
      toolCalls: calls,
    };
  }
  return { content: outcome.text, metadata: { run_id: run.id }, toolCalls: calls };
}

/**
 * Writes a stretch's outcome in one transaction: the thread's message, the run's totals and
 * status, the event. Only while this process still holds the run: one that lost its lease
 * writes nothing.
 */
export async function settle(
  runtime: AgentRuntime,
  run: AgentRunRow,
  agent: AgentRow,
  settings: AgentSettings,
  outcome: SegmentOutcome,
  latencyMs: number,
): Promise<void> {
  const at = runtime.deps.clock.now().toISOString();
  const previousCalls = (readJson<StoredToolCall[]>(run.tool_calls) ?? []).filter(
    // A call paused for approval is recorded again once decided.
    (call) => call.start_time !== null || call.error !== null,
  );
  const inputTokens = run.input_tokens + outcome.inputTokens;
  const outputTokens = run.output_tokens + outcome.outputTokens;
  const model = outcome.model ?? run.model;
  const cost = outcome.endpoint && model ? costOf(outcome.endpoint, model, inputTokens, outputTokens) : run.cost;
  const message = run.thread_id ? resultMessage(run, outcome) : null;
  const messageId = message ? runtime.deps.ids.uuid() : null;
  const wrote = await runtime.deps.db
    .transaction()
    .execute(async (trx) => {
      if (run.thread_id && message && messageId) {
        await insertResultMessage(trx, runtime, { ...run, thread_id: run.thread_id }, { ...message, id: messageId }, at);
      }
      const finished = outcome.status !== 'awaiting_approval';
      // Counted before the run's totals change: a month's first count sums the runs' totals.
      await settleTokens(trx, budgetedRun(run), outcome.inputTokens + outcome.outputTokens, runtime.deps.clock.now());
      const updated = await updateRunIf(
        trx,
        run.id,
        { statuses: ['running'], leaseOwner: runtime.owner },
        {
          status: outcome.status,
          model_provider_id: outcome.endpoint ? outcome.endpoint.providerId : run.model_provider_id,
          model,
          steps: run.steps + outcome.steps,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          cost,
          latency_ms: (run.latency_ms ?? 0) + latencyMs,
          error: storableText(outcome.error),
          final_text: outcome.status === 'succeeded' ? storableText(outcome.text) : null,
          tool_calls: writeJson([...previousCalls, ...outcome.toolCalls.map(storedCall)]),
          pending_approval: writeJson(outcome.pending),
          conversation: writeJson(outcome.conversation),
          result_message_id: messageId ?? run.result_message_id,
          lease_owner: null,
          lease_expires_at: null,
          finished_at: finished ? at : null,
          updated_at: at,
        },
      );
      if (!updated) {
        // Someone failed the run as abandoned meanwhile: their record stands, this one is dropped.
        throw new LeaseLost();
      }
      if (run.thread_id && messageId) {
        const stored = await findThreadMessage(trx, run.thread_id, messageId);
        // A user's thread is theirs alone (the event is private to them); a visitor's thread is
        // followed by the visitor's own stream, not the organization's event log.
        if (stored && run.principal_type !== 'visitor') {
          await recordEvent(trx, runtime.deps, run.organization_id, {
            type: 'chat.message.created',
            actor: { type: 'system', id: null, name: agent.name },
            data: stored,
            privateToUserId: run.acting_user_id,
          });
        }
        if (stored) {
          runtime.publish(run.id, { event: 'message', data: stored });
        }
      }
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof LeaseLost) {
        return false;
      }
      throw error;
    });
  if (wrote) {
    announceSettled(runtime, { run, agent, settings, outcome }, { inputTokens, outputTokens, cost, model });
    if (outcome.status !== 'awaiting_approval') {
      runtime.deps.metrics.aiRunEnded(outcome.status);
    }
  }
}

/** The thread message of a stretch, and the thread's new activity time. */
async function insertResultMessage(
  trx: Transaction<DB>,
  runtime: AgentRuntime,
  run: AgentRunRow & { thread_id: string },
  message: ReturnType<typeof resultMessage> & { id: string },
  at: string,
): Promise<void> {
  await appendThreadMessage(trx, {
    id: message.id,
    organization_id: run.organization_id,
    thread_id: run.thread_id,
    sort_key: runtime.deps.ids.ulid(),
    role: 'assistant',
    // The model's words and a provider's errors are outside text: storable, whatever bytes they hold.
    content: storableText(message.content),
    content_html: null,
    tool_calls: writeJson(message.toolCalls),
    attachments: null,
    metadata: writeJson(message.metadata),
    created_at: at,
  });
}

/** After a stretch was recorded: its approval request and usage to the run's listeners, and its log line. */
function announceSettled(
  runtime: AgentRuntime,
  stretch: { run: AgentRunRow; agent: AgentRow; settings: AgentSettings; outcome: SegmentOutcome },
  totals: { inputTokens: number; outputTokens: number; cost: number | null; model: string | null },
): void {
  const { run, agent, settings, outcome } = stretch;
  if (outcome.status === 'awaiting_approval') {
    runtime.publish(run.id, {
      event: 'approval_required',
      data: {
        run_id: run.id,
        tool_calls: (outcome.pending ?? []).map((call) => ({
          approval_id: call.approval_id,
          tool_name: call.tool_name,
          arguments: call.arguments,
        })),
      },
    });
  }
  runtime.publish(run.id, {
    event: 'usage',
    data: {
      steps: run.steps + outcome.steps,
      input_tokens: totals.inputTokens,
      output_tokens: totals.outputTokens,
      cost: totals.cost,
    },
  });
  runtime.deps.log.info(
    {
      runId: run.id,
      agentId: agent.id,
      status: outcome.status,
      steps: outcome.steps,
      model: totals.model,
      error: outcome.error ?? undefined,
      maxSteps: settings.maxSteps,
    },
    'agent run',
  );
}

class LeaseLost extends Error {}

/** Fails a run that is in one of `statuses` (and ours), with its failure message in its thread. */
export async function failRun(
  runtime: AgentRuntime,
  runId: string,
  statuses: readonly AgentRunStatus[],
  error: string,
): Promise<void> {
  const failed = await runtime.deps.db.transaction().execute(async (trx) => {
    const run = await findRun(trx, runId);
    return run ? failRunIn(trx, runtime, run, statuses, error) : false;
  });
  if (failed) {
    runtime.deps.metrics.aiRunEnded('failed');
  }
}

export async function failRunIn(
  trx: Transaction<DB>,
  runtime: { deps: Pick<AppDeps, 'db' | 'clock' | 'ids'>; owner: string },
  run: AgentRunRow,
  statuses: readonly AgentRunStatus[],
  error: string,
  options: { anyOwner?: boolean } = {},
): Promise<boolean> {
  const at = runtime.deps.clock.now().toISOString();
  const messageId = run.thread_id ? runtime.deps.ids.uuid() : null;
  const failed = await updateRunIf(
    trx,
    run.id,
    { statuses, ...(options.anyOwner ? {} : { leaseOwner: runtime.owner }) },
    {
      status: 'failed',
      error,
      lease_owner: null,
      lease_expires_at: null,
      pending_approval: null,
      conversation: null,
      result_message_id: messageId ?? run.result_message_id,
      finished_at: at,
      updated_at: at,
    },
  );
  if (failed) {
    // Whatever the run held of the budget is free again; what a dead process spent is not known.
    await settleTokens(trx, budgetedRun(run), 0, runtime.deps.clock.now());
  }
  if (failed && run.thread_id && messageId) {
    await appendThreadMessage(trx, {
      id: messageId,
      organization_id: run.organization_id,
      thread_id: run.thread_id,
      sort_key: runtime.deps.ids.ulid(),
      role: 'assistant',
      content: `The agent could not answer: ${error}`,
      content_html: null,
      tool_calls: writeJson([]),
      attachments: null,
      metadata: writeJson({ run_id: run.id, run_error: error }),
      created_at: at,
    });
  }
  return failed;
}

/**
 * Fails the runs whose process stopped renewing their lease (it crashed or lost its database):
 * a run is never executed twice, since a tool may have acted already. Any process may call it;
 * each run is failed once (the update is conditional). Answers how many it failed.
 */
export async function recoverAbandonedRuns(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids'> & { metrics?: Pick<Metrics, 'aiRunEnded'> },
  limit = 100,
): Promise<number> {
  const runtime = { deps, owner: '' };
  const now = deps.clock.now().toISOString();
  let failed = 0;
  for (const run of await listAbandonedRuns(deps.db, now, limit)) {
    const done = await deps.db.transaction().execute(async (trx) => {
      if (run.thread_id) {
        await lockThread(trx, run.thread_id);
      }
      return failRunIn(trx, runtime, run, ['queued', 'running'], ABANDONED, { anyOwner: true });
    });
    if (done) {
      failed += 1;
      deps.metrics?.aiRunEnded('abandoned');
    }
  }
  return failed;
}

/**
 * Records on a running run that its visitor asked, through the agent, for a person (the first
 * reason stands); the messenger hands the conversation to a person when the run ends.
 */
export async function requestRunHandoff(deps: Pick<AppDeps, 'db' | 'clock'>, runId: string, reason: string): Promise<void> {
  await deps.db
    .updateTable('agent_runs')
    .set({ handoff_reason: reason, updated_at: deps.clock.now().toISOString() })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .where('handoff_reason', 'is', null)
    .execute();
}

/** Records on an ended run why its answer went to a person rather than to the customer. */
export async function recordRunHandoff(deps: Pick<AppDeps, 'db' | 'clock'>, runId: string, reason: string): Promise<void> {
  await updateRunIf(
    deps.db,
    runId,
    { statuses: ['succeeded', 'failed', 'rejected'] },
    { handoff_reason: reason, updated_at: deps.clock.now().toISOString() },
  );
}
