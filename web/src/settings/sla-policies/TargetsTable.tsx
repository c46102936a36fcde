import { useFormContext } from 'react-hook-form';
import { SLA_METRICS } from '../../../../src/shared/sla';
import type { Choice } from '../../ui/conditions/condition-catalog';
import { SLA_METRIC_LABELS } from '../../ui/sla-countdown';
import type { SlaPolicyFormValues } from './sla-policy-form';

const CELL =
  'w-full min-w-24 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';

/** What each target measures, read under the table. */
const METRIC_HINTS = [
  'First reply: from the ticket’s creation to the first public agent reply.',
  'Next reply: from the oldest unanswered customer comment to the next public reply.',
  'Periodic update: between public agent replies.',
  'Resolution: from creation to closed (time while reopened counts).',
];

/**
 * The policy's targets, a row per priority and a column per metric, each a duration as people
 * write it ("1 h 30 min", "45 min", "2 d"); an empty cell sets no target. The API's word on a
 * target (one longer than the resolution) shows in its cell.
 */
export function TargetsTable({ priorities }: { priorities: Choice[] }) {
  const { register, formState, getValues } = useFormContext<SlaPolicyFormValues>();
  const labelOf = (name: string) => priorities.find((priority) => priority.value === name)?.label ?? name;
  const rows = Object.keys(getValues('targets'));
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">Targets per priority</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Write each as a duration: “1 h 30 min”, “45 min”, “2 d”. Leave a cell empty for no target; a priority with no target gets
        none from this policy.
      </p>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">The teams have no priorities yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="text-left text-xs text-zinc-500 dark:text-zinc-400">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Priority
                </th>
                {SLA_METRICS.map((metric) => (
                  <th key={metric} scope="col" className="px-1 py-1 font-medium">
                    {SLA_METRIC_LABELS[metric]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((priority) => (
                <tr key={priority} className="align-top">
                  <th scope="row" className="py-2 pr-2 text-left font-medium">
                    {labelOf(priority)}
                  </th>
                  {SLA_METRICS.map((metric) => {
                    const error = formState.errors.targets?.[priority]?.[metric]?.message;
                    const errorId = `target-${priority}-${metric}-error`;
                    return (
                      <td key={metric} className="px-1 py-1">
                        <input
                          aria-label={`${labelOf(priority)} ${SLA_METRIC_LABELS[metric].toLowerCase()}`}
                          aria-invalid={Boolean(error)}
                          aria-describedby={error ? errorId : undefined}
                          placeholder="—"
                          className={CELL}
                          {...register(`targets.${priority}.${metric}`)}
                        />
                        {error ? (
                          <p id={errorId} className="mt-1 max-w-48 text-xs text-red-700 dark:text-red-400">
                            {error}
                          </p>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ul className="text-xs text-zinc-500 dark:text-zinc-400">
        {METRIC_HINTS.map((hint) => (
          <li key={hint}>{hint}</li>
        ))}
      </ul>
    </fieldset>
  );
}
