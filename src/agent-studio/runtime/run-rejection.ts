import { readJson } from '../../db/dialect.js';
import type { AgentRunRow } from './agent-run.repository.js';
import type { AgentRuntime } from './agent-runtime.js';
import type { PendingApproval, SegmentOutcome } from './run-executor.js';

/**
 * A person rejected the tool calls a run paused for: the run ends as `rejected` (an approval
 * continues it instead). The model is not asked again; the calls are recorded as declined.
 */

type Decision = { approved: boolean; reason: string | null };

/** What rejecting a paused run's tool calls comes to: the calls recorded as declined, and the run ended without asking the model again. */
export function rejectedOutcome(run: AgentRunRow, decision: Decision, at: string): SegmentOutcome {
  const pending = readJson<PendingApproval[]>(run.pending_approval) ?? [];
  const error = `Rejected: ${decision.reason ?? 'a person declined the tool call'}`;
  return {
    status: 'rejected',
    text: '',
    toolCalls: pending.map((call) => ({
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      arguments: (call.arguments ?? null) as Record<string, unknown> | null,
      result: null,
      error: 'Rejected: a person declined this call',
      // It never started; it ended when it was decided.
      start_time: null,
      end_time: at,
    })),
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    error,
    pending: null,
    conversation: null,
    endpoint: null,
    model: null,
  };
}

/** Tells the run's listeners (a playground) that each rejected call ended, as a call the model made would. */
export function announceRejected(runtime: AgentRuntime, outcome: SegmentOutcome, runId: string): SegmentOutcome {
  for (const call of outcome.toolCalls) {
    runtime.publish(runId, {
      event: 'tool_call_end',
      data: {
        tool_call_id: call.tool_call_id,
        tool_name: call.tool_name,
        result: null,
        error: call.error,
        end_time: call.end_time,
      },
    });
  }
  return outcome;
}
