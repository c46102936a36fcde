import { ApiError } from '../api/client';

/** A failed request, in the API's own words: never a blank page. */
export function ErrorNotice({ error, className = '' }: { error: unknown; className?: string }) {
  if (!error) {
    return null;
  }
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError && error.status > 0 ? ` (${error.status})` : '';
  return (
    <div
      role="alert"
      className={`rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200 ${className}`}
    >
      {message}
      {status}
    </div>
  );
}
