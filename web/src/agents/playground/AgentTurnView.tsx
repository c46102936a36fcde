import { Badge, type BadgeTone } from '../../ui/Badge';
import { ApprovalPrompt } from './ApprovalPrompt';
import type { AgentTurn } from './playground-turns';
import { ToolCallCard } from './ToolCallCard';

function statusOf(turn: AgentTurn): { label: string; tone: BadgeTone } {
  if (turn.status === 'not_started') {
    return { label: 'Not answered', tone: 'neutral' };
  }
  if (turn.status === 'failed') {
    return { label: 'Run failed', tone: 'red' };
  }
  if (turn.status === 'awaiting_approval') {
    return { label: 'Waiting for approval', tone: 'amber' };
  }
  if (turn.status === 'rejected' || turn.decision === 'rejected') {
    // A rejection ends the run; until its `done` arrives, the turn is being closed.
    return { label: turn.status === 'rejected' ? 'Rejected' : 'Rejecting…', tone: 'violet' };
  }
  return turn.status === 'succeeded' ? { label: 'Answered', tone: 'green' } : { label: 'Answering…', tone: 'blue' };
}

/** The agent's side of one exchange, as it streams: tool calls, the answer, a pause for approval, a failure. */
export function AgentTurnView({
  turn,
  busy,
  onDecide,
}: {
  turn: AgentTurn;
  busy: boolean;
  onDecide: (turn: AgentTurn, approved: boolean) => void;
}) {
  const status = statusOf(turn);
  return (
    <li aria-label="Agent" className="flex flex-col gap-2 rounded-md bg-zinc-50 p-3 dark:bg-zinc-900/60">
      <div className="flex items-center gap-2 text-xs font-medium">
        <span>Agent</span>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      {turn.toolCalls.length > 0 ? (
        <ul aria-label="Tool calls" className="flex flex-col gap-2">
          {turn.toolCalls.map((call) => (
            <ToolCallCard key={call.id} call={call} />
          ))}
        </ul>
      ) : null}
      {turn.approval ? (
        <ApprovalPrompt approval={turn.approval} busy={busy} onDecide={(approved) => onDecide(turn, approved)} />
      ) : null}
      {turn.decision === 'rejected' || turn.status === 'rejected' ? (
        <p className="text-sm text-violet-900 dark:text-violet-200">
          The call was rejected: it did not run, and the run ended without asking the model again.
        </p>
      ) : null}
      {turn.text ? <p className="whitespace-pre-wrap break-words text-sm">{turn.text}</p> : null}
      {turn.status === 'not_started' ? (
        <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
          No run started: the agent is inactive or has no model. Make it active with a model provider, then send again.
        </p>
      ) : null}
      {turn.status === 'failed' ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {`The run failed: ${turn.error ?? 'no reason was stored'}`}
        </p>
      ) : null}
    </li>
  );
}
