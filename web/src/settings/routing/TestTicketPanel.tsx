import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import type { ConditionCatalog } from '../../ui/conditions/condition-catalog';
import { CheckboxField, InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { prioritiesQuery, type SimulationInput, simulate, statusesQuery, ticketFieldsQuery } from './routing-api';
import { SimulationResult } from './SimulationResult';

interface SampleTicket {
  title: string;
  description: string;
  priorityId: string;
  statusId: string;
  source: string;
  requestorEmail: string;
  accountId: string;
  tagIds: string[];
  custom: Record<string, string>;
}

const EMPTY: SampleTicket = {
  title: '',
  description: '',
  priorityId: '',
  statusId: '',
  source: '',
  requestorEmail: '',
  accountId: '',
  tagIds: [],
  custom: {},
};

/** Only what the sample says: an empty field is left to routing's defaults, as on a real ticket. */
function sampleBody(sample: SampleTicket): SimulationInput {
  const customFieldValues = Object.entries(sample.custom)
    .filter(([, value]) => value.trim() !== '')
    .map(([fieldId, value]) => ({ fieldId, value }));
  return {
    title: sample.title,
    ...(sample.description ? { description: sample.description } : {}),
    ...(sample.priorityId ? { priorityId: sample.priorityId } : {}),
    ...(sample.statusId ? { statusId: sample.statusId } : {}),
    ...(sample.source ? { source: sample.source } : {}),
    ...(sample.requestorEmail ? { requestorEmail: sample.requestorEmail } : {}),
    ...(sample.accountId ? { accountId: sample.accountId } : {}),
    ...(sample.tagIds.length > 0 ? { tagIds: sample.tagIds } : {}),
    ...(customFieldValues.length > 0 ? { customFieldValues } : {}),
  };
}

/** "Test a ticket": a sample ticket run through the team's routing without creating anything. */
export function TestTicketPanel({
  teamId,
  catalog,
  teamName,
}: {
  teamId: string;
  catalog: ConditionCatalog;
  teamName: (id: string | null) => string;
}) {
  const priorities = useQuery(prioritiesQuery(teamId));
  const statuses = useQuery(statusesQuery(teamId));
  const fields = useQuery(ticketFieldsQuery(teamId));
  const form = useForm<SampleTicket>({ defaultValues: EMPTY });
  const { register, handleSubmit, formState } = form;
  const run = useMutation({
    mutationFn: (sample: SampleTicket) => simulate(teamId, sampleBody(sample)),
    onError: (error) => showApiError(form, error),
  });
  const options = (list: { id: string; displayName: string }[] | undefined, none: string) => [
    { value: '', label: none },
    ...(list ?? []).map((option) => ({ value: option.id, label: option.displayName })),
  ];
  const tags = catalog.fieldOf('tags').options;
  const accounts = catalog.fieldOf('accountId').options;
  const errors = formState.errors;
  return (
    <section
      aria-label="Test a ticket"
      className="flex flex-col gap-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 className="text-base font-semibold">Test a ticket</h2>
      <form
        aria-label="Sample ticket"
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={handleSubmit((sample) => run.mutate(sample))}
      >
        <InputField label="Sample title" error={errors.title?.message} {...register('title')} />
        <InputField label="Requestor email" type="email" error={errors.requestorEmail?.message} {...register('requestorEmail')} />
        <TextareaField
          label="Sample description"
          className="sm:col-span-2 [&_textarea]:min-h-16"
          error={errors.description?.message}
          {...register('description')}
        />
        <SelectField label="Sample priority" options={options(priorities.data, 'Default')} {...register('priorityId')} />
        <SelectField label="Sample status" options={options(statuses.data, 'Default')} {...register('statusId')} />
        <InputField label="Source" hint="For example email or api; api when empty." {...register('source')} />
        <SelectField label="Account" options={[{ value: '', label: 'None' }, ...accounts]} {...register('accountId')} />
        {(fields.data ?? []).map((field) => (
          <InputField key={field.uid} label={field.name} {...register(`custom.${field.uid}`)} />
        ))}
        {tags.length > 0 ? (
          <fieldset className="flex flex-wrap gap-3 sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">Tags</legend>
            {tags.map((tag) => (
              <CheckboxField key={tag.value} label={tag.label} value={tag.value} {...register('tagIds')} />
            ))}
          </fieldset>
        ) : null}
        <div className="sm:col-span-2">
          <FormProblems errors={errors} />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="primary" disabled={run.isPending}>
            {run.isPending ? 'Testing…' : 'Run test'}
          </Button>
        </div>
      </form>
      {run.data ? <SimulationResult result={run.data} catalog={catalog} teamName={teamName} /> : null}
    </section>
  );
}
