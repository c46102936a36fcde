import type { ReactNode } from 'react';

/** An empty list of the agents area: what is missing, and the next step that fills it. */
export function EmptyNote({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 p-6 text-center dark:border-zinc-700">
      <h2 className="font-medium">{title}</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{children}</p>
    </div>
  );
}
