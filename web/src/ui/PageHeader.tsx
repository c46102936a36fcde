import type { ReactNode } from 'react';

/** A page's title (its one `h1`), a line saying what the page is for, and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
      <div className="min-w-0">
        <h1 className="text-lg font-semibold">{title}</h1>
        {description ? <p className="text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** The "Load more" end of a cursor-paged list. */
export function LoadMore({ hasMore, loading, onLoadMore }: { hasMore: boolean; loading: boolean; onLoadMore: () => void }) {
  if (!hasMore) {
    return null;
  }
  return (
    <div className="flex justify-center p-3">
      <button
        type="button"
        className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
        disabled={loading}
        onClick={onLoadMore}
      >
        {loading ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
