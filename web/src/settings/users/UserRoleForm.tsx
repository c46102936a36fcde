import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ROLE_LABELS, type User, updateUser, userKeys } from './users-api';

const roleSchema = z.object({ userType: z.enum(['ORG_MEMBER', 'ORG_ADMIN']) });
type Role = z.infer<typeof roleSchema>;

const ROLE_OPTIONS = [
  { value: 'ORG_MEMBER', label: ROLE_LABELS.ORG_MEMBER },
  { value: 'ORG_ADMIN', label: ROLE_LABELS.ORG_ADMIN },
] as const;

/** The user's role; the API refuses to leave the organization without an admin, and says so beside the field. */
export function UserRoleForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const form = useForm<Role>({ resolver: zodResolver(roleSchema), defaultValues: { userType: user.userType } });
  const save = useMutation({
    mutationFn: (values: Role) => updateUser(user.id, values),
    onSuccess: async (saved) => {
      queryClient.setQueryData(userKeys.one(user.id), saved);
      form.reset({ userType: saved.userType });
      await queryClient.invalidateQueries({ queryKey: userKeys.list });
    },
    onError: (error) => showApiError(form, error),
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  return (
    <section aria-labelledby="role-heading" className="flex flex-col gap-2">
      <h2 id="role-heading" className="text-base font-semibold">
        Role
      </h2>
      <form className="flex flex-wrap items-end gap-2" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <SelectField
          label="Role"
          hint="Admins also set up the helpdesk: teams, routing, users, keys and channels."
          options={ROLE_OPTIONS}
          error={errors.userType?.message}
          className="min-w-48"
          {...form.register('userType')}
        />
        <Button type="submit" variant="primary" disabled={!isDirty || save.isPending} className="mb-5">
          Save role
        </Button>
      </form>
      <FormProblems errors={errors} onReload={() => void queryClient.invalidateQueries({ queryKey: userKeys.one(user.id) })} />
    </section>
  );
}
