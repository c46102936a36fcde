import { type UseFormReturn, useWatch } from 'react-hook-form';
import type { InboxOptions } from '../../api/ticket-options';
import { CheckboxGroup } from '../../ui/CheckboxGroup';
import { InputField, SelectField } from '../../ui/FormField';
import { ANY_CLOSED, ANY_OPEN, type ViewFormValues } from './view-form';

interface Choice {
  value: string;
  label: string;
}

/** Keeps the saved value among the choices, even before the options load or once it is gone from them. */
function withSaved(choices: Choice[], saved: string, label: string): Choice[] {
  return saved === '' || choices.some((choice) => choice.value === saved) ? choices : [...choices, { value: saved, label }];
}

const savedLabel = (value: string, what: string) =>
  value.startsWith('name:') ? value.slice('name:'.length) : `The ${what} saved with the view`;

/** The filters of the view, the ones the inbox's filter bar offers, combined with AND. */
export function ViewFilterFields({ form, options }: { form: UseFormReturn<ViewFormValues>; options: InboxOptions }) {
  const errors = form.formState.errors.filters;
  const filters = useWatch({ control: form.control, name: 'filters' });
  const statusChoices: Choice[] = [
    { value: '', label: 'Any status' },
    { value: ANY_OPEN, label: 'Any open status' },
    { value: ANY_CLOSED, label: 'Any closed status' },
    ...options.statuses.map((status) => ({ value: `name:${status.name}`, label: status.name })),
  ];
  const priorityChoices: Choice[] = [
    { value: '', label: 'Any priority' },
    ...options.priorities.map((priority) => ({ value: `name:${priority.name}`, label: priority.name })),
  ];
  const assigneeChoices: Choice[] = [
    { value: '', label: 'Anyone or nobody' },
    { value: 'me', label: 'Whoever looks at the view' },
    { value: 'none', label: 'Unassigned' },
    ...options.users.map((user) => ({ value: user.id, label: user.name })),
  ];
  const tagChoices = [...new Set([...options.tags, ...filters.tags])].map((tag) => ({ value: tag, label: tag }));
  const teamChoices = withSavedTeams(
    options.teams.map((team) => ({ value: team.id, label: team.name })),
    filters.teamIds,
  );
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Tickets that match all of these</legend>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <SelectField
          label="Status"
          error={errors?.status?.message}
          options={withSaved(statusChoices, filters.status, savedLabel(filters.status, 'status'))}
          {...form.register('filters.status')}
        />
        <SelectField
          label="Priority"
          error={errors?.priority?.message}
          options={withSaved(priorityChoices, filters.priority, savedLabel(filters.priority, 'priority'))}
          {...form.register('filters.priority')}
        />
        <SelectField
          label="Assignee"
          error={errors?.assignedAgentId?.message}
          options={withSaved(assigneeChoices, filters.assignedAgentId, 'A former agent')}
          {...form.register('filters.assignedAgentId')}
        />
        <InputField
          label="Requestor email"
          type="email"
          autoComplete="off"
          error={errors?.requestorEmail?.message}
          {...form.register('filters.requestorEmail')}
        />
      </div>
      <CheckboxGroup
        legend="Teams"
        options={teamChoices}
        value={filters.teamIds}
        onChange={(teamIds) => form.setValue('filters.teamIds', teamIds, { shouldDirty: true })}
        error={errors?.teamIds?.message}
        empty="No teams yet: tickets of every team match."
      />
      <CheckboxGroup
        legend="Tags (any of them)"
        options={tagChoices}
        value={filters.tags}
        onChange={(tags) => form.setValue('filters.tags', tags, { shouldDirty: true })}
        error={errors?.tags?.message}
        empty="No ticket tags yet: a team's admins add them in the team's settings."
      />
    </fieldset>
  );
}

function withSavedTeams(teams: Choice[], saved: readonly string[]): Choice[] {
  const unlisted = saved.filter((teamId) => !teams.some((team) => team.value === teamId));
  return [...teams, ...unlisted.map((teamId) => ({ value: teamId, label: 'A team no longer listed' }))];
}
