import { type UseFormReturn, useWatch } from 'react-hook-form';
import { CheckboxGroup } from '../../ui/CheckboxGroup';
import { SelectField } from '../../ui/FormField';
import type { MacroFormValues } from './macro-form';
import type { Choice, useMacroChoices } from './use-macro-choices';

type Choices = ReturnType<typeof useMacroChoices>;

/** The option lists of a status or priority picked by name, keeping one the macro was saved with by id. */
function optionChoices(names: readonly string[], current: string, savedByIdLabel: string): Choice[] {
  const choices: Choice[] = [
    { value: '', label: 'Leave as it is' },
    ...names.map((name) => ({ value: `name:${name}`, label: name })),
  ];
  if (current.startsWith('id:')) {
    choices.push({ value: current, label: savedByIdLabel });
  } else if (current !== '' && !choices.some((choice) => choice.value === current)) {
    choices.push({ value: current, label: current.slice('name:'.length) });
  }
  return choices;
}

/** What applying the macro changes on the ticket besides posting its reply; every action optional. */
export function MacroActionsFields({ form, choices }: { form: UseFormReturn<MacroFormValues>; choices: Choices }) {
  const { errors } = form.formState;
  const actions = useWatch({ control: form.control, name: 'actions' });
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Changes to the ticket</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          label="Set status"
          error={errors.actions?.status?.message}
          options={optionChoices(choices.statuses, actions.status, 'The status saved with the macro')}
          {...form.register('actions.status')}
        />
        <SelectField
          label="Set priority"
          error={errors.actions?.priority?.message}
          options={optionChoices(choices.priorities, actions.priority, 'The priority saved with the macro')}
          {...form.register('actions.priority')}
        />
        <SelectField
          label="Assign to"
          error={errors.actions?.assignedAgentId?.message}
          options={assigneeChoices(choices, actions.assignedAgentId)}
          {...form.register('actions.assignedAgentId')}
        />
      </div>
      <CheckboxGroup
        legend="Add tags"
        options={withUnlisted(choices.tags, actions.addTagIds)}
        value={actions.addTagIds}
        onChange={(tagIds) => form.setValue('actions.addTagIds', tagIds, { shouldDirty: true })}
        error={errors.actions?.addTagIds?.message}
        empty="No ticket tags yet: a team's admins add them in the team's settings."
      />
    </fieldset>
  );
}

function assigneeChoices(choices: Choices, current: string): Choice[] {
  const list: Choice[] = [
    { value: '', label: 'Leave as it is' },
    { value: 'me', label: 'Whoever applies the macro' },
    { value: 'none', label: 'Nobody (unassign)' },
    ...choices.users.map((user) => ({ value: user.id, label: user.name })),
  ];
  return list.some((choice) => choice.value === current) ? list : [...list, { value: current, label: 'A former agent' }];
}

/** Tags the macro adds that the list does not offer (another team's, after the team changed) stay visible, to uncheck. */
function withUnlisted(tags: Choice[], chosen: readonly string[]): Choice[] {
  const unlisted = chosen.filter((tagId) => !tags.some((tag) => tag.value === tagId));
  return [...tags, ...unlisted.map((tagId) => ({ value: tagId, label: 'A tag of another team' }))];
}
