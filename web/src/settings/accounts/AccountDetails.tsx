import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ACCOUNTS_KEY, type Account, type AttributeName, accountQuery, attributeValuesQuery } from './account-queries';

const detailsSchema = z.object({
  name: z.string().trim().min(1, 'Give the account a name').max(255, 'At most 255 characters'),
  primaryDomain: z.string().trim().min(1, 'Give the company’s email domain'),
  website: z.string().trim(),
  description: z.string().max(10_000, 'At most 10,000 characters'),
  status: z.string(),
  classification: z.string(),
  health: z.string(),
  industry: z.string(),
});
type DetailsValues = z.infer<typeof detailsSchema>;

const detailsOf = (account: Account): DetailsValues => ({
  name: account.name,
  primaryDomain: account.primaryDomain,
  website: account.website ?? '',
  description: account.description ?? '',
  status: account.statusId ?? '',
  classification: account.classificationId ?? '',
  health: account.healthId ?? '',
  industry: account.industryId ?? '',
});

const ATTRIBUTES = [
  { name: 'status', attribute: 'account_status', label: 'Status' },
  { name: 'classification', attribute: 'account_classification', label: 'Classification' },
  { name: 'health', attribute: 'account_health', label: 'Health' },
  { name: 'industry', attribute: 'account_industry', label: 'Industry' },
] as const;

/** The account's own attributes: name, domain, website, description, and its status, classification, health and industry. */
export function AccountDetails({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const form = useForm<DetailsValues>({ resolver: zodResolver(detailsSchema), defaultValues: detailsOf(account) });
  const { register, formState } = form;
  const { errors } = formState;
  useUnsavedChanges(formState.isDirty);
  const save = async (values: DetailsValues) => {
    const body = {
      name: values.name.trim(),
      primaryDomain: values.primaryDomain.trim().toLowerCase(),
      website: values.website || null,
      description: values.description || null,
      // An attribute is never cleared, only changed: no choice leaves it as it is.
      ...Object.fromEntries(ATTRIBUTES.filter(({ name }) => values[name]).map(({ name }) => [name, values[name]])),
    };
    try {
      const saved = await unwrap(api.PUT('/v1/accounts/{id}', { params: { path: { id: account.id } }, body }));
      form.reset(detailsOf(saved));
      queryClient.setQueryData(accountQuery(account.id).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: [...ACCOUNTS_KEY, 'list'] });
    } catch (error) {
      showApiError(form, error);
    }
  };
  return (
    <section aria-label="Details" className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold">Details</h2>
      <form noValidate onSubmit={form.handleSubmit(save)} className="flex flex-col gap-3">
        <FormProblems errors={errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <InputField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
          <InputField
            label="Primary domain"
            autoComplete="off"
            error={errors.primaryDomain?.message}
            {...register('primaryDomain')}
          />
          <InputField label="Website" type="url" autoComplete="off" error={errors.website?.message} {...register('website')} />
          {ATTRIBUTES.map(({ name, attribute, label }) => (
            <AttributeSelect key={name} attribute={attribute} label={label} error={errors[name]?.message} {...register(name)} />
          ))}
        </div>
        <TextareaField label="Description" error={errors.description?.message} {...register('description')} />
        <div>
          <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
            Save
          </Button>
        </div>
      </form>
    </section>
  );
}

function AttributeSelect({
  attribute,
  label,
  error,
  ...registered
}: { attribute: AttributeName; label: string; error: string | undefined } & UseFormRegisterReturn) {
  const values = useQuery(attributeValuesQuery(attribute));
  const options = [{ value: '', label: '—' }, ...(values.data ?? []).map((value) => ({ value: value.id, label: value.value }))];
  // Until the values arrive the select holds only "—"; rendering it then would lose the account's choice.
  if (!values.data) {
    return <InputField label={label} disabled value="Loading…" readOnly />;
  }
  return <SelectField label={label} options={options} error={error} {...registered} />;
}
