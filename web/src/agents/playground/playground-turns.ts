import type { RunEvent } from './run-stream';

export interface ToolCallView {
  id: string;
  name: string;
  arguments: unknown;
  result: unknown;
  error: string | null;
  startTime: string | null;
  endTime: string | null;
  running: boolean;
}

export interface PendingApproval {
  runId: string;
  toolCalls: { approval_id: string; tool_name: string; arguments: unknown }[];
}

export interface UserTurn {
  kind: 'user';
  key: string;
  text: string;
}

export interface AgentTurn {
  kind: 'agent';
  key: string;
  runId: string | null;
  text: string;
  toolCalls: ToolCallView[];
  approval: PendingApproval | null;
  decision: 'approved' | 'rejected' | null;
  /** The run's status as last streamed (running, awaiting_approval, succeeded, failed, rejected), or not_started. */
  status: string;
  /** Why the run failed, as stored on the run. */
  error: string | null;
}

export type Turn = UserTurn | AgentTurn;

export function newAgentTurn(key: string): AgentTurn {
  return {
    kind: 'agent',
    key,
    runId: null,
    text: '',
    toolCalls: [],
    approval: null,
    decision: null,
    status: 'running',
    error: null,
  };
}

function withToolCall(turn: AgentTurn, id: string, change: (call: ToolCallView | undefined) => ToolCallView): AgentTurn {
  const index = turn.toolCalls.findIndex((call) => call.id === id);
  if (index < 0) {
    return { ...turn, toolCalls: [...turn.toolCalls, change(undefined)] };
  }
  const toolCalls = [...turn.toolCalls];
  toolCalls[index] = change(toolCalls[index]);
  return { ...turn, toolCalls };
}

/** The agent's turn once `event` has arrived: text grows, tool calls start and end, the run pauses or ends. */
export function applyRunEvent(turn: AgentTurn, event: RunEvent): AgentTurn {
  switch (event.event) {
    case 'run':
      return { ...turn, runId: event.data.run_id, status: event.data.status === 'queued' ? 'running' : event.data.status };
    case 'text_delta':
      return { ...turn, text: turn.text + event.data.delta };
    case 'tool_call_start': {
      const { tool_call_id: id, tool_name: name, arguments: args, start_time: startTime } = event.data;
      return withToolCall(turn, id, (call) => ({
        ...(call ?? { result: null, error: null, endTime: null }),
        id,
        name,
        arguments: args,
        startTime,
        running: true,
      }));
    }
    case 'tool_call_end': {
      const { tool_call_id: id, tool_name: name, result, error, end_time: endTime } = event.data;
      return withToolCall(turn, id, (call) => ({
        id,
        name,
        arguments: call?.arguments ?? null,
        startTime: call?.startTime ?? null,
        result,
        error,
        endTime,
        running: false,
      }));
    }
    case 'approval_required':
      return { ...turn, status: 'awaiting_approval', approval: { runId: event.data.run_id, toolCalls: event.data.tool_calls } };
    case 'done':
      return { ...turn, runId: event.data.run_id, status: event.data.status, error: event.data.error ?? turn.error };
    default:
      return turn;
  }
}

/** How long a tool call took, in words, when both ends are known. */
export function durationOf(call: Pick<ToolCallView, 'startTime' | 'endTime'>): string | null {
  if (!call.startTime || !call.endTime) {
    return null;
  }
  const ms = Date.parse(call.endTime) - Date.parse(call.startTime);
  return Number.isFinite(ms) ? (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`) : null;
}
