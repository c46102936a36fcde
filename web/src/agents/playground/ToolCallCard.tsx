import { Badge } from '../../ui/Badge';
import { durationOf, type ToolCallView } from './playground-turns';

/** JSON as people read it, indented; a string stays as it is. */
export function readableJson(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  return JSON.stringify(value, null, 2) ?? 'null';
}

const CODE = 'max-h-60 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900';

/** One tool call of a run: its name, the arguments the model gave, what it answered (or why not) and how long it took. */
export function ToolCallCard({ call }: { call: ToolCallView }) {
  const took = durationOf(call);
  return (
    <li
      aria-label={`Tool call ${call.name}`}
      className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-semibold">{call.name}</span>
        {call.running ? <Badge tone="blue">Running…</Badge> : null}
        {!call.running && call.error ? <Badge tone="red">Failed</Badge> : null}
        {!call.running && !call.error ? <Badge tone="green">Done</Badge> : null}
        {took ? <span className="text-xs text-zinc-600 dark:text-zinc-400">{`Took ${took}`}</span> : null}
      </div>
      <figure>
        <figcaption className="text-xs font-medium">Arguments</figcaption>
        <pre className={CODE}>{readableJson(call.arguments ?? {})}</pre>
      </figure>
      {call.error ? (
        <p className="text-red-800 dark:text-red-300">{call.error}</p>
      ) : call.running ? null : (
        <figure>
          <figcaption className="text-xs font-medium">Result</figcaption>
          <pre className={CODE}>{readableJson(call.result)}</pre>
        </figure>
      )}
    </li>
  );
}
