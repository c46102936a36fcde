import { Plus } from 'lucide-react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '../Button';
import { ConditionRow } from './ConditionRow';
import type { ConditionCatalog } from './condition-catalog';
import type { ConditionFormValues } from './condition-form';
import { emptyCondition } from './conditions';

const GROUPS = {
  andRules: { legend: 'All of these conditions', hint: 'Every one must hold.', add: 'Add a condition to all' },
  orRules: {
    legend: 'Any of these conditions',
    hint: 'When there are some, at least one must hold too.',
    add: 'Add a condition to any',
  },
} as const;

/** The AND or the OR list of conditions of a routing rule or an SLA policy. */
export function ConditionGroup({ group, catalog }: { group: 'andRules' | 'orRules'; catalog: ConditionCatalog }) {
  const { control } = useFormContext<ConditionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: group });
  const text = GROUPS[group];
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">{text.legend}</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{text.hint}</p>
      {fields.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {fields.map((item, index) => (
            <ConditionRow key={item.id} group={group} index={index} catalog={catalog} onRemove={() => remove(index)} />
          ))}
        </ul>
      ) : null}
      <div>
        <Button onClick={() => append(emptyCondition())}>
          <Plus size={14} aria-hidden />
          {text.add}
        </Button>
      </div>
    </fieldset>
  );
}
