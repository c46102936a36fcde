import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { createAndInvite, ROLE_LABELS, userKeys } from './users-api';

const inviteSchema = z.object({
  name: z.string().trim().min(1, 'Enter their name').max(200),
  email: z.email('Enter an email address').max(320),
  userType: z.enum(['ORG_MEMBER', 'ORG_ADMIN']),
});
type Invite = z.infer<typeof inviteSchema>;

const ROLE_OPTIONS = [
  { value: 'ORG_MEMBER', label: `${ROLE_LABELS.ORG_MEMBER}: works tickets` },
  { value: 'ORG_ADMIN', label: `${ROLE_LABELS.ORG_ADMIN}: also sets up the helpdesk` },
] as const;

/** Adds a user and emails them the link to set a password; what was typed stays when the API refuses it. */
export function InviteUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Invite>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { name: '', email: '', userType: 'ORG_MEMBER' },
  });
  const invite = useMutation({
    mutationFn: createAndInvite,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.list });
      form.reset();
      onOpenChange(false);
    },
    onError: (error) => showApiError(form, error),
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite user"
      description="They get an email with a link to set their password and sign in."
    >
      <form className="flex flex-col gap-3 p-4" noValidate onSubmit={form.handleSubmit((values) => invite.mutate(values))}>
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <InputField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
        <SelectField label="Role" options={ROLE_OPTIONS} error={errors.userType?.message} {...form.register('userType')} />
        <FormProblems
          errors={errors}
          onReload={() => void queryClient.invalidateQueries({ queryKey: userKeys.list }).then(() => onOpenChange(false))}
        />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={invite.isPending}>
            {invite.isPending ? 'Sending…' : 'Send invitation'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
