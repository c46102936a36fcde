import type { FieldErrors } from 'react-hook-form';
import { Button } from './Button';

/**
 * What a failed save says that belongs to no single field, and a conflict (409: someone else saved
 * first) with the two ways out: take their version, or write ours over it.
 */
export function FormProblems({
  errors,
  onReload,
  onOverwrite,
}: {
  errors: FieldErrors;
  onReload?: () => void;
  onOverwrite?: () => void;
}) {
  const root = errors.root as Record<string, { message?: string } | undefined> | undefined;
  const problem = root?.api?.message;
  const conflict = root?.conflict?.message;
  if (!problem && !conflict) {
    return null;
  }
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {problem ? <p>{problem}</p> : null}
      {conflict ? (
        <>
          <p>{conflict}</p>
          <div className="flex gap-2">
            {onReload ? <Button onClick={onReload}>Reload</Button> : null}
            {onOverwrite ? (
              <Button variant="danger" onClick={onOverwrite}>
                Overwrite
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </div>
  );
}
