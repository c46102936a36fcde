import type { InputHTMLAttributes } from 'react';
import { FormField } from './FormField';

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
  return (
    <FormField label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label={`${label} picker`}
            className="h-9 w-12 cursor-pointer rounded-md border border-zinc-300 bg-white p-1 dark:border-zinc-700 dark:bg-zinc-900"
            value={HEX.test(value) ? value.toLowerCase() : '#000000'}
            onChange={(event) => onChange(event.target.value.toUpperCase())}
          />
          <input
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder="#1F74DB"
            className="w-32 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
            {...control}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            {...input}
          />
        </div>
      )}
    </FormField>
  );
}
