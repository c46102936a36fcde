import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { apiValueOf, INPUT_TYPES, MULTI_TYPES, SINGLE_CHOICE_TYPES, textOf } from './account-field-values';
import { type Account, type AccountField, accountFieldsQuery, accountQuery } from './account-queries';

type FieldValues = { values: Record<string, string | string[]> };

function formValuesOf(fields: AccountField[], account: Account): FieldValues {
  const stored = new Map(account.customFieldValues.map((entry) => [entry.fieldId, entry.value]));
  return {
    values: Object.fromEntries(
      fields.map((field) => {
        const value = stored.get(field.uid);
        return [
          field.uid,
          MULTI_TYPES.includes(field.fieldType) ? (Array.isArray(value) ? value.map(String) : []) : textOf(value),
        ];
      }),
    ),
  };
}

/** The account's custom-field values, one input per active account field, saved together. */
export function AccountCustomFields({ account }: { account: Account }) {
  const fields = useQuery(accountFieldsQuery);
  return (
    <section aria-label="Custom fields" className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold">Custom fields</h2>
      {fields.data && fields.data.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No custom fields for accounts yet. Add one under Custom fields, with "Accounts" as its record.
        </p>
      ) : null}
      {fields.data && fields.data.length > 0 ? <FieldValuesForm fields={fields.data} account={account} /> : null}
    </section>
  );
}

function FieldValuesForm({ fields, account }: { fields: AccountField[]; account: Account }) {
  const queryClient = useQueryClient();
  const form = useForm<FieldValues>({ defaultValues: formValuesOf(fields, account) });
  const { register, formState } = form;
  useUnsavedChanges(formState.isDirty);
  const save = async ({ values }: FieldValues) => {
    const customFieldValues = fields.map((field) => ({ fieldId: field.uid, value: apiValueOf(field, values[field.uid] ?? '') }));
    try {
      const saved = await unwrap(
        api.PUT('/v1/accounts/{id}', { params: { path: { id: account.id } }, body: { customFieldValues } }),
      );
      form.reset(formValuesOf(fields, saved));
      queryClient.setQueryData(accountQuery(account.id).queryKey, saved);
    } catch (error) {
      // The API names a value by its place in the list sent.
      showApiError(
        form,
        error,
        Object.fromEntries(fields.map((field, index) => [`customFieldValues.${index}`, `values.${field.uid}`])),
      );
    }
  };
  const errorOf = (uid: string) => formState.errors.values?.[uid]?.message;
  return (
    <form noValidate onSubmit={form.handleSubmit(save)} className="flex flex-col gap-3">
      <FormProblems errors={formState.errors} />
      <div className="grid gap-3 sm:grid-cols-2">
        {fields.map((field) => {
          const name = `values.${field.uid}` as const;
          if (SINGLE_CHOICE_TYPES.includes(field.fieldType)) {
            const options = [{ value: '', label: '—' }, ...field.options.map((option) => ({ value: option, label: option }))];
            return (
              <SelectField key={field.uid} label={field.name} options={options} error={errorOf(field.uid)} {...register(name)} />
            );
          }
          if (MULTI_TYPES.includes(field.fieldType)) {
            return (
              <fieldset key={field.uid} className="flex flex-col gap-1">
                <legend className="text-sm font-medium">{field.name}</legend>
                {field.options.map((option) => (
                  <CheckboxField key={option} label={option} value={option} {...register(name)} />
                ))}
              </fieldset>
            );
          }
          return (
            <InputField
              key={field.uid}
              label={field.name}
              type={INPUT_TYPES[field.fieldType] ?? 'text'}
              placeholder={field.placeholderText ?? undefined}
              hint={field.hintText ?? undefined}
              error={errorOf(field.uid)}
              {...register(name)}
            />
          );
        })}
      </div>
      <div>
        <Button type="submit" disabled={formState.isSubmitting}>
          Save custom fields
        </Button>
      </div>
    </form>
  );
}
