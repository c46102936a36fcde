import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { type Team, teamKeys } from './team-queries';

const NewTeamSchema = z.object({
  name: z.string().trim().min(1, 'Give the team a name'),
  identifier: z.string().trim(),
  parentTeamId: z.string(),
});
type NewTeam = z.infer<typeof NewTeamSchema>;

const EMPTY: NewTeam = { name: '', identifier: '', parentTeamId: '' };

/** Name, an optional identifier (derived from the name when left empty), and a parent for a sub-team. */
export function NewTeamDialog({
  open,
  onOpenChange,
  parents,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  parents: readonly Team[];
}) {
  const form = useForm<NewTeam>({ resolver: zodResolver(NewTeamSchema), defaultValues: EMPTY });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: async (values: NewTeam) =>
      (
        await unwrap(
          api.POST('/v1/teams', {
            body: {
              name: values.name,
              ...(values.identifier ? { identifier: values.identifier } : {}),
              ...(values.parentTeamId ? { parentTeamId: values.parentTeamId } : {}),
            },
          }),
        )
      ).data,
    onSuccess: async (team) => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.list });
      form.reset(EMPTY);
      onOpenChange(false);
      await navigate({ to: '/settings/teams/$teamId', params: { teamId: team.id } });
    },
    onError: (error) => {
      // The one conflict a new team meets is a taken identifier: the field to change is that one.
      if (error instanceof ApiError && error.status === 409) {
        form.setError('identifier', { type: 'api', message: error.message }, { shouldFocus: true });
        return;
      }
      showApiError(form, error);
    },
  });
  const errors = form.formState.errors;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New team"
      description="A team owns tickets; a sub-team sits under one team."
    >
      <form className="flex flex-col gap-3 p-4" noValidate onSubmit={form.handleSubmit((values) => create.mutate(values))}>
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <InputField
          label="Identifier"
          hint="Starts ticket numbers (SUP in SUP-12): a letter, then up to 9 letters or digits. Left empty, it comes from the name."
          autoComplete="off"
          error={errors.identifier?.message}
          {...form.register('identifier')}
        />
        <SelectField
          label="Parent team"
          hint="Pick a team to make this a sub-team of it."
          error={errors.parentTeamId?.message}
          options={[
            { value: '', label: 'None (a top-level team)' },
            ...parents.map((team) => ({ value: team.id, label: team.name })),
          ]}
          {...form.register('parentTeamId')}
        />
        <FormProblems errors={errors} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create team
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
