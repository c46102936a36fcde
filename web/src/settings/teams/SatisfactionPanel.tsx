import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { CheckboxGroup } from '../../ui/CheckboxGroup';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { CheckboxField, InputField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import {
  SATISFACTION_PROBLEM_NAMES,
  SatisfactionFormSchema,
  type SatisfactionFormValues,
  satisfactionFormValues,
  satisfactionInput,
} from './satisfaction-form';
import { prioritiesQuery, putSatisfaction, type SatisfactionSettings, satisfactionQuery, tagsQuery } from './team-queries';

/** The team's satisfaction survey: read, then edited in a form that replaces it whole. */
export function SatisfactionPanel({ teamId }: { teamId: string }) {
  const settings = useQuery(satisfactionQuery(teamId));
  if (settings.error) {
    return <ErrorNotice error={settings.error} />;
  }
  if (!settings.data) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the survey settings…</p>;
  }
  return <SatisfactionForm teamId={teamId} settings={settings.data} />;
}

/**
 * When a closed ticket's requestor is asked how it went: whether at all, how long after the
 * close, for what share of closes, how often at most per person, and which tickets never.
 */
function SatisfactionForm({ teamId, settings }: { teamId: string; settings: SatisfactionSettings }) {
  const queryClient = useQueryClient();
  const tags = useQuery(tagsQuery(teamId));
  const priorities = useQuery(prioritiesQuery(teamId));
  const form = useForm<SatisfactionFormValues>({
    resolver: zodResolver(SatisfactionFormSchema),
    defaultValues: satisfactionFormValues(settings),
  });
  const { register, handleSubmit, formState, control } = form;
  useUnsavedChanges(formState.isDirty);
  const save = useMutation({
    mutationFn: (values: SatisfactionFormValues) => putSatisfaction(teamId, satisfactionInput(values)),
    onSuccess: (saved) => {
      form.reset(satisfactionFormValues(saved));
      queryClient.setQueryData(satisfactionQuery(teamId).queryKey, saved);
    },
    onError: (error) => showApiError(form, error, SATISFACTION_PROBLEM_NAMES),
  });
  const errors = formState.errors;
  const ticketTags = (tags.data ?? []).filter((tag) => tag.type === 'ticket');
  return (
    <form
      aria-label="Satisfaction survey"
      className="flex max-w-2xl flex-col gap-4"
      noValidate
      onSubmit={handleSubmit((values) => save.mutate(values))}
    >
      <CheckboxField
        label="Survey requestors when their ticket is closed"
        hint="An email asks them to rate the help as good or bad, with a comment if they like."
        error={errors.enabled?.message}
        {...register('enabled')}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <InputField
          label="Send after"
          hint="After the close: “2 h”, “1 d”, or 0 for at once."
          error={errors.delay?.message}
          {...register('delay')}
        />
        <InputField
          label="Survey share (%)"
          hint="The share of closes surveyed, decided at the close."
          inputMode="decimal"
          error={errors.samplingPercent?.message}
          {...register('samplingPercent')}
        />
        <InputField
          label="Cooldown (days)"
          hint="No second survey to the same person within these days."
          inputMode="numeric"
          error={errors.cooldownDays?.message}
          {...register('cooldownDays')}
        />
      </div>
      <Controller
        control={control}
        name="skipTagIds"
        render={({ field, fieldState }) => (
          <CheckboxGroup
            legend="Never survey tickets tagged"
            options={ticketTags.map((tag) => ({ value: tag.id, label: tag.name }))}
            value={field.value}
            onChange={field.onChange}
            error={fieldState.error?.message}
            empty="The team has no ticket tags."
          />
        )}
      />
      <Controller
        control={control}
        name="skipPriorityIds"
        render={({ field, fieldState }) => (
          <CheckboxGroup
            legend="Never survey tickets of priority"
            options={(priorities.data ?? []).map((priority) => ({ value: priority.id, label: priority.displayName }))}
            value={field.value}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
      <FormProblems errors={errors} />
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={save.isPending || !formState.isDirty}>
          {save.isPending ? 'Saving…' : 'Save survey settings'}
        </Button>
        {save.isSuccess && !formState.isDirty ? (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            Saved.
          </p>
        ) : null}
      </div>
    </form>
  );
}
