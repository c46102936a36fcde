import { useId } from 'react';
import { MACRO_PLACEHOLDERS, type MacroPlaceholder } from '../../../../src/shared/macro-placeholders';

const NAMES = Object.keys(MACRO_PLACEHOLDERS) as MacroPlaceholder[];

/**
 * The placeholders a reply may use (`src/shared/macro-placeholders.ts`, the list the API checks),
 * each with what it becomes; choosing one inserts it where the cursor was in the reply.
 */
export function PlaceholderHelp({ onInsert }: { onInsert: (placeholder: MacroPlaceholder) => void }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Placeholders
      </h2>
      <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
        Filled in from the ticket when the macro is applied. Choose one to insert it at the cursor.
      </p>
      <ul className="mt-2 flex flex-col gap-1">
        {NAMES.map((name) => (
          <li key={name} className="flex flex-wrap items-baseline gap-x-2">
            <button
              type="button"
              aria-describedby={`${id}-${name}`}
              className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-blue-700 hover:bg-blue-50 dark:bg-zinc-800 dark:text-blue-300 dark:hover:bg-zinc-700"
              onClick={() => onInsert(name)}
            >
              {`{{${name}}}`}
            </button>
            <span id={`${id}-${name}`} className="text-xs text-zinc-600 dark:text-zinc-400">
              {MACRO_PLACEHOLDERS[name]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
