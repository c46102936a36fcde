import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { CustomField, Ticket } from '../api/types';
import { patchTicket, type TicketChange } from './ticket-mutations';
import { ticketFieldsQuery } from './ticket-queries';
import { useFieldDraft } from './use-field-draft';

const INPUT = 'w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900';

const INPUT_TYPES: Partial<Record<CustomField['fieldType'], string>> = {
  integer: 'number',
  decimal: 'number',
  currency: 'number',
  date: 'date',
  time: 'time',
  email: 'email',
  phone_number: 'tel',
  url: 'url',
};

/** The text an input shows for a stored value. */
function asText(field: CustomField, value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (field.fieldType === 'date_time' && typeof value === 'string') {
    // datetime-local shows local time without a zone.
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
      return local.toISOString().slice(0, 16);
    }
  }
  return String(value);
}

/** What the API takes for an input's text: numbers as numbers, instants with a zone, empty as null (which clears). */
function fromText(field: CustomField, text: string): unknown {
  if (text.trim() === '') {
    return null;
  }
  if (field.fieldType === 'integer' || field.fieldType === 'decimal' || field.fieldType === 'currency') {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (field.fieldType === 'date_time') {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date.toISOString();
  }
  return text;
}

function FieldInput({ field, value, onSave }: { field: CustomField; value: unknown; onSave: (value: unknown) => void }) {
  const id = useId();
  const shown = asText(field, value);
  const text = useFieldDraft(shown);
  const label = (
    <label htmlFor={id} className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
      {field.name}
    </label>
  );
  if (field.fieldType === 'single_choice' || field.fieldType === 'radio_button') {
    return (
      <div className="flex flex-col gap-0.5">
        {label}
        <select
          id={id}
          className={INPUT}
          value={shown}
          onChange={(event) => onSave(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">—</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (field.fieldType === 'multi_choice' || field.fieldType === 'checkbox') {
    const chosen = Array.isArray(value) ? value.map(String) : [];
    return (
      <fieldset className="flex flex-col gap-0.5">
        <legend className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{field.name}</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {field.options.map((option) => (
            <label key={option} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(option)}
                onChange={(event) => {
                  const next = event.target.checked ? [...chosen, option] : chosen.filter((entry) => entry !== option);
                  onSave(next.length === 0 ? null : next);
                }}
              />
              {option}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  const save = () => {
    const typed = text.finish();
    if (typed !== null && typed !== shown) {
      onSave(fromText(field, typed));
    }
  };
  const common = {
    id,
    className: INPUT,
    value: text.value,
    placeholder: field.placeholderText ?? undefined,
    onBlur: save,
  };
  return (
    <div className="flex flex-col gap-0.5">
      {label}
      {field.fieldType === 'multi_line' || field.fieldType === 'rich_text' ? (
        <textarea {...common} rows={2} onChange={(event) => text.edit(event.target.value)} />
      ) : (
        <input
          {...common}
          type={field.fieldType === 'date_time' ? 'datetime-local' : (INPUT_TYPES[field.fieldType] ?? 'text')}
          step={
            field.fieldType === 'integer'
              ? 1
              : field.fieldType === 'decimal' || field.fieldType === 'currency'
                ? 'any'
                : undefined
          }
          onChange={(event) => text.edit(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.currentTarget.blur();
            }
          }}
        />
      )}
      {field.hintText ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{field.hintText}</p> : null}
    </div>
  );
}

/** The custom fields of the ticket's team and the organization, each saved when it changes. */
export function CustomFieldsEditor({ ticket, change }: { ticket: Ticket; change: (change: TicketChange) => void }) {
  const fields = useQuery(ticketFieldsQuery);
  const shown = (fields.data ?? []).filter((field) => field.teamId === null || field.teamId === ticket.teamId);
  if (shown.length === 0) {
    return null;
  }
  const storedValue = (fieldId: string) => ticket.customFieldValues.find((entry) => entry.fieldId === fieldId)?.value ?? null;
  const save = (fieldId: string, value: unknown) => {
    const others = ticket.customFieldValues.filter((entry) => entry.fieldId !== fieldId);
    change({
      optimistic: { customFieldValues: value === null ? others : [...others, { fieldId, value }] },
      request: patchTicket(ticket.id, { customFieldValues: [{ fieldId, value }] }),
    });
  };
  return (
    <details className="group rounded-md border border-zinc-200 dark:border-zinc-800" open={shown.length <= 4}>
      <summary className="cursor-pointer px-3 py-1.5 text-sm font-medium">Fields ({shown.length})</summary>
      <div className="grid grid-cols-1 gap-3 px-3 pb-3 sm:grid-cols-2 md:grid-cols-3">
        {shown.map((field) => (
          <FieldInput key={field.uid} field={field} value={storedValue(field.uid)} onSave={(value) => save(field.uid, value)} />
        ))}
      </div>
    </details>
  );
}
