import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import type { Team } from './team-queries';

const RenameSchema = z.object({ name: z.string().trim().min(1, 'Give the team a name') });
type Rename = z.infer<typeof RenameSchema>;

/** Renames a team; its identifier, and so its ticket numbers, stay as they are. */
export function RenameTeamDialog({ team, onClose }: { team: Team | null; onClose: () => void }) {
  const form = useForm<Rename>({ resolver: zodResolver(RenameSchema), defaultValues: { name: team?.name ?? '' } });
  const queryClient = useQueryClient();
  useEffect(() => {
    form.reset({ name: team?.name ?? '' });
  }, [team, form]);
  const rename = useMutation({
    mutationFn: async ({ name }: Rename) => {
      if (!team) {
        throw new Error('No team to rename');
      }
      return unwrap(api.PATCH('/v1/teams/{teamId}', { params: { path: { teamId: team.id } }, body: { name } }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
      onClose();
    },
    onError: (error) => showApiError(form, error),
  });
  const errors = form.formState.errors;
  return (
    <Dialog open={team !== null} onOpenChange={(open) => (open ? undefined : onClose())} title={`Rename ${team?.name ?? 'team'}`}>
      <form className="flex flex-col gap-3 p-4" noValidate onSubmit={form.handleSubmit((values) => rename.mutate(values))}>
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <FormProblems errors={errors} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={rename.isPending}>
            Save name
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
