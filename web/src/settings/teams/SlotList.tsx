import { Moon, Plus, X } from 'lucide-react';
import { useId } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { isOvernight, type Weekday } from './business-hours-form';
import type { ConfigurationValues } from './use-configuration-form';

type SlotsName = 'commonSlots' | `dailyConfig.${Weekday}.slots`;

const TIME_INPUT =
  'w-36 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900 dark:[color-scheme:dark]';

/**
 * The opening slots of one day (or of every day): each opens and closes, several a day. A slot
 * that closes before it opens runs overnight into the next day; 00:00 as a close is midnight.
 */
export function SlotList({
  form,
  name,
  dayLabel,
}: {
  form: UseFormReturn<ConfigurationValues>;
  name: SlotsName;
  dayLabel: string;
}) {
  const slots = useFieldArray({ control: form.control, name });
  const values = useWatch({ control: form.control, name });
  return (
    <div className="flex flex-col gap-2">
      {slots.fields.length === 0 ? <p className="text-sm text-zinc-500 dark:text-zinc-400">No slots: closed all day.</p> : null}
      {slots.fields.map((field, index) => (
        <SlotRow
          key={field.id}
          form={form}
          path={`${name}.${index}` as const}
          label={`${dayLabel} slot ${index + 1}`}
          overnight={values?.[index] ? isOvernight(values[index]) : false}
          closesAt={values?.[index]?.end ?? ''}
          onRemove={() => slots.remove(index)}
        />
      ))}
      <div>
        <Button
          variant="ghost"
          aria-label={`Add a slot to ${dayLabel}`}
          onClick={() => slots.append({ start: '09:00', end: '17:00' })}
        >
          <Plus size={14} aria-hidden />
          Add slot
        </Button>
      </div>
    </div>
  );
}

function SlotRow({
  form,
  path,
  label,
  overnight,
  closesAt,
  onRemove,
}: {
  form: UseFormReturn<ConfigurationValues>;
  path: `${SlotsName}.${number}`;
  label: string;
  overnight: boolean;
  closesAt: string;
  onRemove: () => void;
}) {
  const id = useId();
  const slotError = form.getFieldState(path, form.formState).error;
  const startError = form.getFieldState(`${path}.start`, form.formState).error;
  const endError = form.getFieldState(`${path}.end`, form.formState).error;
  const messages = [slotError?.message, startError?.message, endError?.message].filter(Boolean);
  const described = [overnight ? `${id}-overnight` : null, messages.length > 0 ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="time"
          aria-label={`${label} opens`}
          className={TIME_INPUT}
          aria-invalid={Boolean(slotError || startError)}
          aria-describedby={described || undefined}
          {...form.register(`${path}.start`)}
        />
        <span aria-hidden className="text-sm text-zinc-500 dark:text-zinc-400">
          to
        </span>
        <input
          type="time"
          aria-label={`${label} closes`}
          className={TIME_INPUT}
          aria-invalid={Boolean(slotError || endError)}
          aria-describedby={described || undefined}
          {...form.register(`${path}.end`)}
        />
        <button
          type="button"
          aria-label={`Remove ${label}`}
          className="rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
          onClick={onRemove}
        >
          <X size={14} aria-hidden />
        </button>
        {overnight ? (
          <span id={`${id}-overnight`} className="inline-flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
            <Moon size={12} aria-hidden />
            Overnight, until {closesAt} the next day
          </span>
        ) : null}
      </div>
      {messages.length > 0 ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
          {messages.join('; ')}
        </p>
      ) : null}
    </div>
  );
}
