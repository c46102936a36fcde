import { Controller, useFormContext } from 'react-hook-form';
import type { Choice, ConditionCatalog, FieldChoice } from './condition-catalog';
import type { ConditionFormValues } from './condition-form';

const CONTROL =
  'min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';

type ConditionPath = `andRules.${number}` | `orRules.${number}`;

/** The value of one condition, picked the way its field's values are: a list, a checklist or typed text. */
export function ConditionValuePicker({
  path,
  choice,
  catalog,
  invalid,
  describedBy,
}: {
  path: ConditionPath;
  choice: FieldChoice;
  catalog: ConditionCatalog;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const { register, control, watch } = useFormContext<ConditionFormValues>();
  const operator = watch(`${path}.operator`);
  const value = watch(`${path}.value`);
  const a11y = { 'aria-invalid': invalid, 'aria-describedby': describedBy };
  if (operator === 'is_empty' || operator === 'is_not_empty') {
    return null;
  }
  const more = choice.paged && catalog.accounts.hasMore && (
    <button
      type="button"
      className="text-xs text-blue-700 underline disabled:opacity-60 dark:text-blue-400"
      disabled={catalog.accounts.loadingMore}
      onClick={catalog.accounts.loadMore}
    >
      {catalog.accounts.loadingMore ? 'Loading accounts…' : 'Load more accounts'}
    </button>
  );
  if (operator === 'in') {
    return (
      <Controller
        control={control}
        name={`${path}.values`}
        render={({ field }) => (
          <fieldset
            className="flex max-h-40 min-w-0 flex-col gap-1 overflow-y-auto rounded-md border border-zinc-300 p-2 dark:border-zinc-700"
            {...a11y}
          >
            <legend className="sr-only">Values</legend>
            {withCurrent(choice.options, field.value).map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={field.value.includes(option.value)}
                  onChange={(event) =>
                    field.onChange(
                      event.target.checked ? [...field.value, option.value] : field.value.filter((item) => item !== option.value),
                    )
                  }
                />
                {option.label}
              </label>
            ))}
            {more}
          </fieldset>
        )}
      />
    );
  }
  if (choice.kind === 'option' || choice.kind === 'tags') {
    return (
      <div className="flex min-w-0 flex-col gap-1">
        <select aria-label="Value" className={CONTROL} {...a11y} {...register(`${path}.value`)}>
          <option value="">Choose…</option>
          {withCurrent(choice.options, value ? [value] : []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {more}
      </div>
    );
  }
  return (
    <input
      aria-label="Value"
      type={choice.inputType}
      placeholder={choice.kind === 'domain' ? 'example.com' : undefined}
      className={CONTROL}
      {...a11y}
      {...register(`${path}.value`)}
    />
  );
}

/** The options, plus any value the rule holds that they lack (a name typed through the API, an account not read yet). */
function withCurrent(options: Choice[], current: string[]): Choice[] {
  const known = new Set(options.map((option) => option.value.toLowerCase()));
  const extra = current.filter((value) => !known.has(value.toLowerCase())).map((value) => ({ value, label: value }));
  const matched = options.map((option) => {
    const held = current.find((value) => value.toLowerCase() === option.value.toLowerCase());
    return held ? { ...option, value: held } : option;
  });
  return [...matched, ...extra];
}
