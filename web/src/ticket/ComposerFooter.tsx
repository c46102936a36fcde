import { Send } from 'lucide-react';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';

/** Below the text: what went wrong, who will see the message, and the send button. */
export function ComposerFooter({
  error,
  note,
  replyGoesTo,
  disabled,
  onSend,
}: {
  error: unknown;
  note: boolean;
  /** Where a reply goes, in words (`replyDestination`). */
  replyGoesTo: string;
  disabled: boolean;
  onSend: () => void;
}) {
  return (
    <div className="flex flex-col gap-2 px-2 pb-2">
      <ErrorNotice error={error} />
      <div className="flex items-center gap-2">
        <p className="min-w-0 flex-1 truncate text-xs text-zinc-500 dark:text-zinc-400">
          {note ? 'Only your team sees internal notes.' : replyGoesTo}
        </p>
        <Button
          variant="primary"
          className={note ? 'bg-amber-600! hover:bg-amber-700! disabled:bg-amber-400!' : ''}
          disabled={disabled}
          onClick={onSend}
        >
          <Send size={14} aria-hidden />
          Send
        </Button>
      </div>
    </div>
  );
}
