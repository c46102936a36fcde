import { Button } from '../../ui/Button';
import type { PendingApproval } from './playground-turns';
import { readableJson } from './ToolCallCard';

/** A run paused for a person: the calls it wants to make, with "Approve" and "Reject". */
export function ApprovalPrompt({
  approval,
  busy,
  onDecide,
}: {
  approval: PendingApproval;
  busy: boolean;
  onDecide: (approved: boolean) => void;
}) {
  return (
    <section
      aria-label="Approval needed"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium">The agent asks to run:</p>
      <ul className="flex flex-col gap-2">
        {approval.toolCalls.map((call) => (
          <li key={call.approval_id}>
            <span className="font-mono font-semibold">{call.tool_name}</span>
            <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 text-xs dark:bg-zinc-900">
              {readableJson(call.arguments ?? {})}
            </pre>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="primary" disabled={busy} onClick={() => onDecide(true)}>
          Approve
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => onDecide(false)}>
          Reject
        </Button>
      </div>
    </section>
  );
}
