import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { EVENT_TYPE_GROUPS } from './webhook-form';

/** The event types as checkboxes, grouped by what they are about; the API's words about them shown below. */
export function EventTypePicker({ field, error }: { field: UseFormRegisterReturn<'eventTypes'>; error?: string }) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-3" aria-invalid={Boolean(error)} aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">Event types</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {EVENT_TYPE_GROUPS.map((group) => (
          <fieldset key={group.label} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <legend className="px-1 text-xs font-semibold text-zinc-600 uppercase dark:text-zinc-400">{group.label}</legend>
            <div className="flex flex-col gap-1">
              {group.types.map((type) => (
                <label key={type} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" value={type} className="h-4 w-4" {...field} />
                  <span className="font-mono text-xs">{type}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
