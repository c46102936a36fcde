import { AlertTriangle, X } from 'lucide-react';

/** Something another person did to the ticket while the draft was being written. */
export interface Collision {
  key: string;
  actor: string;
  what: string;
  /** The comment to show, for a new comment. */
  commentId: string | null;
}

/** Warns, while a draft is open, that someone else commented or changed the ticket, with a way to see it. */
export function CollisionBanner({
  collisions,
  onShow,
  onDismiss,
}: {
  collisions: readonly Collision[];
  onShow: (collision: Collision) => void;
  onDismiss: () => void;
}) {
  const latest = collisions[collisions.length - 1];
  if (!latest) {
    return null;
  }
  const more = collisions.length - 1;
  return (
    <div
      role="status"
      aria-label="Collision warning"
      className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <AlertTriangle size={16} aria-hidden className="shrink-0" />
      <p className="min-w-0 flex-1">
        {latest.actor} {latest.what} while you were writing
        {more > 0 ? ` (and ${more} more change${more > 1 ? 's' : ''})` : ''}.
      </p>
      <button type="button" className="shrink-0 font-medium underline" onClick={() => onShow(latest)}>
        Show
      </button>
      <button
        type="button"
        aria-label="Dismiss the warning"
        className="shrink-0 rounded p-0.5 hover:bg-amber-100 dark:hover:bg-amber-900"
        onClick={onDismiss}
      >
        <X size={14} aria-hidden />
      </button>
    </div>
  );
}
