import { readJson } from '../../db/dialect.js';
import type { AgentRunRow } from './agent-run.repository.js';
import type { PendingApproval } from './run-executor.js';
import { presentPrincipal, principalOfRun } from './run-principal.js';
import type { ToolCallRecord } from './run-tools.js';

/** A tool call as a run stores it: the chat message's `tool_calls` shape, without the model's call id. */
export type StoredToolCall = Omit<ToolCallRecord, 'tool_call_id'>;

export const storedCall = ({ tool_call_id: _id, ...call }: ToolCallRecord): StoredToolCall => call;

export function toRun(row: AgentRunRow) {
  const pending = readJson<PendingApproval[]>(row.pending_approval);
  return {
    id: row.id,
    agent_id: row.agent_id,
    thread_id: row.thread_id,
    ticket_id: row.ticket_id,
    acting_user_id: row.acting_user_id,
    principal: presentPrincipal(principalOfRun(row)),
    trigger: row.trigger,
    status: row.status,
    input: row.input,
    model_provider_id: row.model_provider_id,
    model: row.model,
    steps: row.steps,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    total_tokens: row.input_tokens + row.output_tokens,
    cost: row.cost,
    latency_ms: row.latency_ms,
    error: row.error,
    final_text: row.final_text,
    handoff_reason: row.handoff_reason,
    tool_calls: readJson<StoredToolCall[]>(row.tool_calls) ?? [],
    pending_approval: pending
      ? {
          tool_calls: pending.map((call) => ({
            approval_id: call.approval_id,
            tool_name: call.tool_name,
            arguments: call.arguments,
          })),
        }
      : null,
    user_message_id: row.user_message_id,
    result_message_id: row.result_message_id,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

export type FinishedRun = ReturnType<typeof toRun>;
