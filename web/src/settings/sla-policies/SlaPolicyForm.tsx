import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { ConditionGroup } from '../../ui/conditions/ConditionGroup';
import { conditionProblemNames } from '../../ui/conditions/conditions';
import { CheckboxField, InputField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ClockChoice } from './ClockChoice';
import { createPolicy, type SlaPolicy, slaPoliciesQuery, updatePolicy } from './sla-policy-api';
import { SlaPolicyFormSchema, type SlaPolicyFormValues, slaPolicyFormValues, slaPolicyInput } from './sla-policy-form';
import { TargetsTable } from './TargetsTable';
import type { SlaChoices } from './use-sla-choices';

/**
 * Creates or edits one SLA policy: its name, the conditions a ticket must meet, the targets per
 * priority, business or calendar time, whether AI replies count, and when the warning comes. A
 * refused save keeps what was typed and shows the API's words beside what they name.
 */
export function SlaPolicyForm({
  policy,
  choices,
  onSaved,
  onCancel,
}: {
  policy: SlaPolicy | undefined;
  choices: SlaChoices;
  /** Leaves the form once the policy is saved: nothing is left unsaved, so nothing to ask. */
  onSaved: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<SlaPolicyFormValues>({
    resolver: zodResolver(SlaPolicyFormSchema),
    defaultValues: slaPolicyFormValues(
      policy,
      choices.priorities.map((priority) => priority.value),
    ),
  });
  const { register, handleSubmit, formState } = form;
  useUnsavedChanges(formState.isDirty);
  const save = useMutation({
    mutationFn: (values: SlaPolicyFormValues) =>
      policy ? updatePolicy(policy.id, slaPolicyInput(values)) : createPolicy(slaPolicyInput(values)),
    onSuccess: async (_saved, values) => {
      form.reset(values);
      await queryClient.invalidateQueries({ queryKey: slaPoliciesQuery.queryKey });
      onSaved();
    },
    onError: (error) => {
      const values = form.getValues();
      showApiError(form, error, conditionProblemNames(values.andRules.length, values.orRules.length));
    },
  });
  const errors = formState.errors;
  return (
    <FormProvider {...form}>
      <form
        aria-label={policy ? `Edit policy ${policy.name}` : 'New SLA policy'}
        className="flex max-w-4xl flex-col gap-4"
        noValidate
        onSubmit={handleSubmit((values) => save.mutate(values))}
      >
        <h2 className="text-base font-semibold">{policy ? `Edit “${policy.name}”` : 'New SLA policy'}</h2>
        <InputField label="Name" error={errors.name?.message} {...register('name')} />
        <TextareaField
          label="Description"
          hint="Optional: whom the policy is for, for whoever reads it next."
          error={errors.description?.message}
          className="[&_textarea]:min-h-16"
          {...register('description')}
        />
        <ConditionGroup group="andRules" catalog={choices.catalog} />
        <ConditionGroup group="orRules" catalog={choices.catalog} />
        <p className="text-xs text-zinc-500 dark:text-zinc-400">A policy without conditions applies to every ticket.</p>
        <TargetsTable priorities={choices.priorities} />
        <ClockChoice />
        <CheckboxField
          label="An AI agent's public reply meets a reply target"
          hint="Otherwise only a person's reply stops the first-reply, next-reply and periodic-update clocks."
          error={errors.aiRepliesCount?.message}
          {...register('aiRepliesCount')}
        />
        <InputField
          label="Warn at (% of the target)"
          hint="When this share of a target's time has passed, the ticket shows the SLA as at risk and the warning event is sent."
          inputMode="decimal"
          className="max-w-xs"
          error={errors.warningPercent?.message}
          {...register('warningPercent')}
        />
        <FormProblems errors={errors} />
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          <Button onClick={onCancel}>Cancel</Button>
        </div>
      </form>
    </FormProvider>
  );
}
