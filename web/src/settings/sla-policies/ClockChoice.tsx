import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import type { SlaPolicyFormValues } from './sla-policy-form';

const CLOCKS = [
  {
    value: 'business',
    label: 'Business hours',
    hint: "Time counts only while the ticket's team is open (its hours and holidays, under Teams).",
  },
  { value: 'calendar', label: 'Calendar time', hint: 'Time counts around the clock, nights, weekends and holidays included.' },
] as const;

/** Whether the policy's targets count in the ticket's team's business hours or around the clock. */
export function ClockChoice() {
  const { register } = useFormContext<SlaPolicyFormValues>();
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Count time in</legend>
      {CLOCKS.map((clock) => (
        <div key={clock.value} className="flex items-start gap-2">
          <input
            id={`${id}-${clock.value}`}
            type="radio"
            value={clock.value}
            className="mt-0.5 h-4 w-4"
            aria-describedby={`${id}-${clock.value}-hint`}
            {...register('clock')}
          />
          <div className="flex flex-col">
            <label htmlFor={`${id}-${clock.value}`} className="text-sm font-medium">
              {clock.label}
            </label>
            <p id={`${id}-${clock.value}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
              {clock.hint}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  );
}
