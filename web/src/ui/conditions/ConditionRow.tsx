import { Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import { ConditionValuePicker } from './ConditionValuePicker';
import { type ConditionCatalog, operatorsOf } from './condition-catalog';
import type { ConditionFormValues } from './condition-form';
import { emptyCondition } from './conditions';

const CONTROL = 'min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

/** One condition: a field, an operator and a value, each picked from what the field allows; the API's word on it below. */
export function ConditionRow({
  group,
  index,
  catalog,
  onRemove,
}: {
  group: 'andRules' | 'orRules';
  index: number;
  catalog: ConditionCatalog;
  onRemove: () => void;
}) {
  const { register, watch, setValue, formState } = useFormContext<ConditionFormValues>();
  const path = `${group}.${index}` as const;
  const errorId = useId();
  const choice = catalog.fieldOf(watch(`${path}.field`));
  const operator = watch(`${path}.operator`);
  const problem = formState.errors[group]?.[index];
  const message = problem?.message ?? problem?.value?.message ?? problem?.values?.message;
  const fieldRegistration = register(`${path}.field`, {
    onChange: (event: { target: { value: string } }) => {
      const next = emptyCondition(event.target.value, catalog.fieldOf(event.target.value).kind);
      setValue(`${path}.operator`, next.operator, { shouldDirty: true });
      setValue(`${path}.value`, '', { shouldDirty: true });
      setValue(`${path}.values`, [], { shouldDirty: true });
    },
  });
  return (
    <li
      aria-label={`Condition ${index + 1}`}
      aria-describedby={message ? errorId : undefined}
      className="flex flex-col gap-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
    >
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-[minmax(0,10rem)_minmax(0,9rem)_minmax(0,1fr)_auto] sm:items-start">
        <select aria-label="Field" className={CONTROL} {...fieldRegistration}>
          {catalog.fields.map((field) => (
            <option key={field.id} value={field.id}>
              {field.label}
            </option>
          ))}
          {catalog.fields.some((field) => field.id === choice.id) ? null : <option value={choice.id}>{choice.label}</option>}
        </select>
        <select aria-label="Operator" className={CONTROL} {...register(`${path}.operator`)}>
          {operatorsOf(choice, operator).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ConditionValuePicker
          path={path}
          choice={choice}
          catalog={catalog}
          invalid={Boolean(message)}
          describedBy={message ? errorId : undefined}
        />
        <button
          type="button"
          aria-label={`Remove condition ${index + 1}`}
          className="justify-self-start rounded-md p-2 text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:hover:bg-zinc-800"
          onClick={onRemove}
        >
          <Trash2 size={16} aria-hidden />
        </button>
      </div>
      {message ? (
        <p id={errorId} className="text-xs text-red-700 dark:text-red-400">
          {message}
        </p>
      ) : null}
    </li>
  );
}
