import { Button } from '../../ui/Button';
import type { Draft, DraftConflict } from './use-article-draft';

/** The words of an article body, for comparing two versions (parsed inertly: nothing in it runs). */
export function textOf(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  return (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function Version({ heading, title, html }: { heading: string; title: string; html: string }) {
  return (
    <section aria-label={heading} className="min-w-0 flex-1 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <h3 className="text-sm font-semibold">{heading}</h3>
      <p className="mt-1 text-sm font-medium">{title}</p>
      <p className="mt-1 whitespace-pre-wrap text-sm text-zinc-700 dark:text-zinc-300">{textOf(html) || '(empty)'}</p>
    </section>
  );
}

/**
 * Another person saved this article after it was opened here: who and when (the API's words),
 * their version beside this one, and the two ways on: take theirs, or save this one over it.
 */
export function ConflictPanel({
  conflict,
  mine,
  onTakeTheirs,
  onOverwrite,
}: {
  conflict: DraftConflict;
  mine: Draft;
  onTakeTheirs: () => void;
  onOverwrite: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="text-sm font-medium">{conflict.message}</p>
      <div className="flex flex-col gap-2 bg-white text-zinc-900 sm:flex-row dark:bg-zinc-900 dark:text-zinc-100">
        <Version heading="Their version" title={conflict.theirs.title} html={conflict.theirs.contentHtml} />
        <Version heading="Your version" title={mine.title} html={mine.html} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={onTakeTheirs}>Take their version</Button>
        <Button variant="primary" onClick={onOverwrite}>
          Save mine over theirs
        </Button>
      </div>
    </div>
  );
}
