import { type SelectHTMLAttributes, useId } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A labelled native select: the label is its accessible name, and phones show their own picker.
 * `hideLabel` keeps the name for screen readers in compact bars.
 */
export function Select({
  label,
  options,
  hideLabel = false,
  className = '',
  ...props
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
  label: string;
  options: readonly SelectOption[];
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 ${className}`}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-xs font-medium text-zinc-600 dark:text-zinc-400'}>
        {label}
      </label>
      <select
        id={id}
        className="max-w-44 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
