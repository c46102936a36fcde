import { Link } from '@tanstack/react-router';
import { ErrorNotice } from '../ui/ErrorNotice';

/** What a page that failed to load shows instead of a blank screen: the error, and a way on. */
export function RouteError({ error, reset }: { error: unknown; reset?: () => void }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-3 p-8">
      <h1 className="text-lg font-semibold">This page could not be shown</h1>
      <ErrorNotice error={error} />
      <div className="flex gap-3 text-sm">
        {reset ? (
          <button type="button" className="text-blue-700 hover:underline dark:text-blue-400" onClick={reset}>
            Try again
          </button>
        ) : null}
        <Link to="/" className="text-blue-700 hover:underline dark:text-blue-400">
          Back to the inbox
        </Link>
      </div>
    </div>
  );
}
