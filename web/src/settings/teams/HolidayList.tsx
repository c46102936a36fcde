import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { holidayLabel, holidayOf } from './holidays';
import type { ConfigurationValues } from './use-configuration-form';

const INPUT =
  'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:[color-scheme:dark]';

/** Whole days closed in the team's zone: picked on a calendar, once or every year, and removable. */
export function HolidayList({ form }: { form: UseFormReturn<ConfigurationValues> }) {
  const holidays = useFieldArray({ control: form.control, name: 'holidays' });
  const [picked, setPicked] = useState('');
  const [everyYear, setEveryYear] = useState(false);
  const [problem, setProblem] = useState('');
  const id = useId();
  const add = () => {
    const holiday = holidayOf(picked, everyYear);
    if (!holiday) {
      setProblem('Pick a date first');
      return;
    }
    if (holidays.fields.some((field) => field.value === holiday)) {
      setProblem(`${holidayLabel(holiday)} is already a holiday`);
      return;
    }
    holidays.append({ value: holiday });
    setPicked('');
    setProblem('');
  };
  const listError = form.getFieldState('holidays', form.formState).error;
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        Holidays
      </h3>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">Closed all day, in the team's time zone.</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-date`} className="text-sm font-medium">
            Holiday date
          </label>
          <input
            id={`${id}-date`}
            type="date"
            className={INPUT}
            value={picked}
            aria-invalid={Boolean(problem)}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => setPicked(event.target.value)}
          />
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4"
            checked={everyYear}
            onChange={(event) => setEveryYear(event.target.checked)}
          />
          Every year
        </label>
        <Button onClick={add}>
          <Plus size={14} aria-hidden />
          Add holiday
        </Button>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className="text-xs text-red-700 dark:text-red-400">
          {problem}
        </p>
      ) : null}
      {listError?.message ? <p className="text-xs text-red-700 dark:text-red-400">{listError.message}</p> : null}
      {holidays.fields.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No holidays yet: pick a date above to add one.</p>
      ) : (
        <ul aria-label="Holidays" className="flex flex-col gap-1">
          {holidays.fields.map((field, index) => (
            <HolidayItem key={field.id} form={form} index={index} holiday={field.value} onRemove={() => holidays.remove(index)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function HolidayItem({
  form,
  index,
  holiday,
  onRemove,
}: {
  form: UseFormReturn<ConfigurationValues>;
  index: number;
  holiday: string;
  onRemove: () => void;
}) {
  const error = form.getFieldState(`holidays.${index}`, form.formState).error;
  const label = holidayLabel(holiday);
  return (
    <li className="flex flex-col">
      <div className="flex items-center gap-2 text-sm">
        <span>{label}</span>
        <button
          type="button"
          aria-label={`Remove holiday ${label}`}
          className="rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
          onClick={onRemove}
        >
          <X size={14} aria-hidden />
        </button>
      </div>
      {error?.message ? <p className="text-xs text-red-700 dark:text-red-400">{error.message}</p> : null}
    </li>
  );
}
