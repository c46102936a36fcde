import { type ReactNode, useId } from 'react';

/**
 * Several choices of one list (teams, tags) as labelled checkboxes in a fieldset whose legend
 * names them; the error, when there is one, is read with the group.
 */
export function CheckboxGroup({
  legend,
  options,
  value,
  onChange,
  error,
  empty,
}: {
  legend: string;
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string;
  /** What to say when there is nothing to choose, and how to get something. */
  empty?: ReactNode;
}) {
  const id = useId();
  const toggle = (option: string, checked: boolean) =>
    onChange(checked ? [...value, option] : value.filter((chosen) => chosen !== option));
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      {options.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{empty}</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {options.map((option) => (
            <li key={option.value}>
              <label className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  className="h-4 w-4"
                  checked={value.includes(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                />
                {option.label}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
