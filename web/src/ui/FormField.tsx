import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

const CONTROL =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with its hint and its error: the label is the control's accessible
 * name, and the error (the API's words, or the form's own check) is read with it.
 */
export function FormField({
  label,
  hint,
  error,
  className = '',
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy(id, hint, error) })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

type FieldText = { label: string; hint?: ReactNode; error?: string; className?: string };

export function InputField({ label, hint, error, className, ...input }: FieldText & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FormField label={label} hint={hint} error={error} className={className}>
      {(control) => <input className={CONTROL} {...control} {...input} />}
    </FormField>
  );
}

export function TextareaField({
  label,
  hint,
  error,
  className,
  ...textarea
}: FieldText & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FormField label={label} hint={hint} error={error} className={className}>
      {(control) => <textarea className={`${CONTROL} min-h-24`} {...control} {...textarea} />}
    </FormField>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  options,
  ...select
}: FieldText & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  return (
    <FormField label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <select className={CONTROL} {...control} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** A checkbox with its label beside it, and a line saying what it changes. */
export function CheckboxField({
  label,
  hint,
  error,
  className = '',
  ...input
}: FieldText & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={`flex items-start gap-2 ${className}`}>
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 h-4 w-4"
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
      <div className="flex flex-col">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <FieldNotes id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}

/** The ids of a control's hint and error, which its `aria-describedby` names. */
function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** A control's hint and its error, under it, with the ids `describedBy` names. */
function FieldNotes({ id, hint, error }: { id: string; hint: ReactNode; error: string | undefined }) {
  return (
    <>
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
    </>
  );
}
