import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { InputField } from '../ui/FormField';
import { FormProblems } from '../ui/FormProblems';
import { showApiError } from '../ui/use-api-form';
import { createHelpCenter, HELP_CENTERS_KEY } from './knowledge-api';

/** Names a new help center, then opens it. */
export function NewHelpCenterDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const { register, handleSubmit, formState, reset } = form;
  const submit = handleSubmit(async ({ name }) => {
    try {
      const created = await createHelpCenter(name);
      await queryClient.invalidateQueries({ queryKey: HELP_CENTERS_KEY });
      reset();
      onOpenChange(false);
      await navigate({ to: '/knowledge/$helpCenterId', params: { helpCenterId: created._id } });
    } catch (error) {
      showApiError(form, error);
    }
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New help center">
      <form aria-label="New help center" onSubmit={submit} noValidate className="flex flex-col gap-3 p-4">
        <FormProblems errors={formState.errors} />
        <InputField
          label="Name"
          hint="Shown at the top of the public site; its address (/hc/…) is made from it, and can be changed later."
          error={formState.errors.name?.message}
          {...register('name', { validate: (value) => value.trim() !== '' || 'Enter a name' })}
        />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Creating…' : 'Create'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
