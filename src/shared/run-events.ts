/**
 * What an agent run streams as it goes (`POST …/messages` and the approval decisions with
 * `Accept: text/event-stream`): each is a Server-Sent Event of the same name. The runtime sends
 * them and the console's playground reads them, so both hold this one definition.
 */
export type RunEvent =
  | { event: 'run'; data: { run_id: string; status: string } }
  | { event: 'text_delta'; data: { delta: string } }
  | { event: 'tool_call_start'; data: { tool_call_id: string; tool_name: string; arguments: unknown; start_time: string | null } }
  | {
      event: 'tool_call_end';
      data: { tool_call_id: string; tool_name: string; result: unknown; error: string | null; end_time: string | null };
    }
  | {
      event: 'approval_required';
      data: { run_id: string; tool_calls: { approval_id: string; tool_name: string; arguments: unknown }[] };
    }
  /** The answer as the thread keeps it (a chat message: `content` is its text). */
  | { event: 'message'; data: { content?: string } & Record<string, unknown> }
  | { event: 'usage'; data: { steps: number; input_tokens: number; output_tokens: number; cost: number | null } }
  | { event: 'done'; data: { run_id: string; status: string; error: string | null } };

export const RUN_EVENT_NAMES: readonly RunEvent['event'][] = [
  'run',
  'text_delta',
  'tool_call_start',
  'tool_call_end',
  'approval_required',
  'message',
  'usage',
  'done',
];
