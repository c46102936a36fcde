import type { AgentRun } from '../../api/agent-studio-client';
import { DateTime } from '../../ui/DateTime';
import { formatLatency } from './run-queries';

type ToolCall = AgentRun['tool_calls'][number];

const BLOCK = 'max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900';

/** JSON shown as the tool saw it, indented; a string result as its text. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2));

function durationOf(call: ToolCall): number | null {
  if (!call.start_time || !call.end_time) {
    return null;
  }
  return Math.max(0, Date.parse(call.end_time) - Date.parse(call.start_time));
}

/** A run's tool calls in order: each one's name, arguments, result or error, and when it ran. */
export function ToolCallList({ calls }: { calls: ToolCall[] }) {
  if (calls.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">The agent called no tools in this run.</p>;
  }
  return (
    <ol aria-label="Tool calls" className="flex flex-col gap-3">
      {calls.map((call, index) => (
        // Calls have no id of their own; their place in the run is what names them.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list only ever grows at its end
        <li key={index} className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-mono font-medium">{call.tool_name}</h3>
            <span className="text-zinc-600 dark:text-zinc-400">
              <DateTime value={call.start_time} empty="not started" />
              {` · ${formatLatency(durationOf(call))}`}
            </span>
          </div>
          <div>
            <h4 className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Arguments</h4>
            <pre className={BLOCK}>{shown(call.arguments)}</pre>
          </div>
          {call.error ? (
            <p className="text-red-700 dark:text-red-300">
              <span className="font-medium">Error: </span>
              {call.error}
            </p>
          ) : (
            <div>
              <h4 className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Result</h4>
              <pre className={BLOCK}>{shown(call.result)}</pre>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
