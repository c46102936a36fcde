import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { StudioAgent } from '../api/agent-studio-client';
import { Button } from '../ui/Button';
import { InputField, SelectField, TextareaField } from '../ui/FormField';
import { FormProblems } from '../ui/FormProblems';
import { showApiError } from '../ui/use-api-form';
import { useUnsavedChanges } from '../ui/use-unsaved-changes';
import { type AgentFormValues, agentFormValues } from './agent-form';
import { providersQuery } from './studio-queries';

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const;

/**
 * An agent's description and how it runs: its model, instructions, temperature, limits and
 * monthly budget. The API is the judge of every value: a refused save keeps what was typed and
 * shows its words beside the field they name.
 */
export function AgentForm({
  agent,
  submitLabel,
  onSave,
}: {
  agent?: StudioAgent;
  submitLabel: string;
  onSave: (values: AgentFormValues) => Promise<StudioAgent>;
}) {
  const form = useForm<AgentFormValues>({ defaultValues: agentFormValues(agent) });
  const { register, handleSubmit, formState, reset, watch } = form;
  useUnsavedChanges(formState.isDirty && !formState.isSubmitting);
  const providers = useQuery(providersQuery).data ?? [];
  const chosen = providers.find((provider) => provider.id === watch('configuration.model_provider_id'));
  const errors = formState.errors.configuration;

  const submit = handleSubmit(async (values) => {
    try {
      reset(agentFormValues(await onSave(values)));
    } catch (error) {
      showApiError(form, error);
    }
  });

  const number = { type: 'number', inputMode: 'decimal' } as const;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormProblems errors={formState.errors} />
      <InputField label="Name" error={formState.errors.name?.message} {...register('name')} />
      <TextareaField label="Description" error={formState.errors.description?.message} {...register('description')} />
      <SelectField label="Status" options={STATUSES} error={formState.errors.status?.message} {...register('status')} />
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 font-semibold">Model</legend>
        <SelectField
          label="Model provider"
          options={[
            { value: '', label: "The server's default" },
            ...providers.map((provider) => ({ value: provider.id, label: provider.name })),
          ]}
          error={errors?.model_provider_id?.message}
          {...register('configuration.model_provider_id')}
        />
        <InputField
          label="Model"
          placeholder={chosen?.default_model ?? ''}
          hint="Empty: the provider's default model."
          error={errors?.model?.message}
          {...register('configuration.model')}
        />
        <TextareaField
          label="Instructions"
          hint="What the agent is told before every conversation."
          error={errors?.system_instructions?.message}
          {...register('configuration.system_instructions')}
        />
        <InputField
          label="Temperature"
          {...number}
          step="0.1"
          hint="From 0 to 2; empty: the model's own."
          error={errors?.temperature?.message}
          {...register('configuration.temperature')}
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 font-semibold">Limits and budget</legend>
        <InputField
          label="Steps per run"
          {...number}
          hint="Model calls a run may make, tool rounds included; empty: 8."
          error={errors?.max_steps?.message}
          {...register('configuration.max_steps')}
        />
        <InputField
          label="Output tokens per model call"
          {...number}
          hint="Empty: the model's own limit."
          error={errors?.max_output_tokens?.message}
          {...register('configuration.max_output_tokens')}
        />
        <InputField
          label="Tool timeout (seconds)"
          {...number}
          hint="Longest a tool call may take; empty: 30."
          error={errors?.tool_timeout_seconds?.message}
          {...register('configuration.tool_timeout_seconds')}
        />
        <InputField
          label="Run timeout (seconds)"
          {...number}
          hint="Longest a run may take; empty: 120."
          error={errors?.run_timeout_seconds?.message}
          {...register('configuration.run_timeout_seconds')}
        />
        <InputField
          label="Monthly token budget"
          {...number}
          hint="Input plus output tokens per calendar month (UTC); empty: unlimited."
          error={errors?.monthly_token_budget?.message}
          {...register('configuration.monthly_token_budget')}
        />
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
