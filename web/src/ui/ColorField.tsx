import { type InputHTMLAttributes, useId } from 'react';

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * A colour as `#RRGGBB`: the browser's colour picker and a text field for the same value, so it
 * can be picked or typed. The text field carries the label; the picker is named after it.
 */
export function ColorField({
  label,
  hint,
  error,
  value,
  onChange,
  className = '',
  ...input
}: {
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          className="h-9 w-12 cursor-pointer rounded-md border border-zinc-300 bg-white p-1 dark:border-zinc-700 dark:bg-zinc-900"
          value={HEX.test(value) ? value.toLowerCase() : '#000000'}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
        />
        <input
          id={id}
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="#1F74DB"
          className="w-32 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
          aria-invalid={Boolean(error)}
          aria-describedby={described}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...input}
        />
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
