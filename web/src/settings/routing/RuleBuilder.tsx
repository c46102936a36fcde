import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { ConditionGroup } from '../../ui/conditions/ConditionGroup';
import { conditionProblemNames } from '../../ui/conditions/conditions';
import { InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { createRule, type RoutingRule, type RoutingTeam, rulesQuery, updateRule } from './routing-api';
import { RuleFormSchema, type RuleFormValues, ruleFormValues, ruleInput } from './rule-form';
import { useConditionCatalog } from './use-condition-catalog';

/**
 * Creates or edits one rule of `teamId`: its name, its AND and OR conditions picked from lists,
 * the team a match goes to and the fallback. A refused save keeps what was typed and shows the
 * API's words beside the condition or field they name.
 */
export function RuleBuilder({
  teamId,
  rule,
  teams,
  onSaved,
  onCancel,
}: {
  teamId: string;
  rule: RoutingRule | undefined;
  teams: RoutingTeam[];
  /** Leaves the builder once the rule is saved: nothing is left unsaved, so nothing to ask. */
  onSaved: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const catalog = useConditionCatalog(teamId);
  const form = useForm<RuleFormValues>({ resolver: zodResolver(RuleFormSchema), defaultValues: ruleFormValues(rule) });
  const { register, handleSubmit, formState } = form;
  useUnsavedChanges(formState.isDirty);
  const save = useMutation({
    mutationFn: (values: RuleFormValues) =>
      rule ? updateRule(teamId, rule.id, ruleInput(values)) : createRule(teamId, ruleInput(values)),
    onSuccess: async (_saved, values) => {
      form.reset(values);
      await queryClient.invalidateQueries({ queryKey: rulesQuery(teamId).queryKey });
      onSaved();
    },
    onError: (error) => {
      const values = form.getValues();
      showApiError(form, error, conditionProblemNames(values.andRules.length, values.orRules.length));
    },
  });
  const otherTeams = teams.filter((team) => team.id !== teamId).map((team) => ({ value: team.id, label: team.name }));
  const errors = formState.errors;
  return (
    <FormProvider {...form}>
      <form
        aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'}
        className="flex max-w-3xl flex-col gap-4 p-4"
        noValidate
        onSubmit={handleSubmit((values) => save.mutate(values))}
      >
        <h2 className="text-base font-semibold">{rule ? `Edit “${rule.name}”` : 'New rule'}</h2>
        <InputField label="Name" error={errors.name?.message} {...register('name')} />
        <TextareaField
          label="Description"
          hint="Optional: why the rule exists, for whoever reads it next."
          error={errors.description?.message}
          className="[&_textarea]:min-h-16"
          {...register('description')}
        />
        <ConditionGroup group="andRules" catalog={catalog} />
        <ConditionGroup group="orRules" catalog={catalog} />
        <p className="text-xs text-zinc-500 dark:text-zinc-400">A rule without conditions matches every ticket.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Result team"
            hint="Receives the tickets that match."
            error={errors.resultTeamId?.message}
            options={[{ value: '', label: 'Choose a team…' }, ...otherTeams]}
            {...register('resultTeamId')}
          />
          <SelectField
            label="Fallback team"
            hint="Takes them when the result team is archived."
            error={errors.fallbackTeamId?.message}
            options={[{ value: '', label: 'None' }, ...otherTeams]}
            {...register('fallbackTeamId')}
          />
        </div>
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
