/** The open view's name, how many tickets it holds (a `+` while more pages remain), and the way to the shortcuts. */
export function InboxHeading({
  title,
  count,
  hasMore,
  onShowShortcuts,
}: {
  title: string;
  /** How many tickets are loaded; null until the list has loaded. */
  count: number | null;
  hasMore: boolean;
  onShowShortcuts: () => void;
}) {
  return (
    <div className="flex items-baseline gap-2 px-3 pt-3">
      <h1 className="text-base font-semibold">{title}</h1>
      {count !== null ? (
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {count}
          {hasMore ? '+' : ''} {count === 1 ? 'ticket' : 'tickets'}
        </span>
      ) : null}
      <button
        type="button"
        className="ml-auto hidden text-xs text-zinc-500 hover:underline md:inline dark:text-zinc-400"
        onClick={onShowShortcuts}
      >
        Keyboard shortcuts (?)
      </button>
    </div>
  );
}
