import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { ACCOUNTS_KEY, accountQuery } from './account-queries';

const newAccountSchema = z.object({
  name: z.string().trim().min(1, 'Give the account a name').max(255, 'At most 255 characters'),
  primaryDomain: z.string().trim().min(1, 'Give the company’s email domain, e.g. acme.com'),
});
type NewAccountValues = z.infer<typeof newAccountSchema>;
const EMPTY: NewAccountValues = { name: '', primaryDomain: '' };

/** "New account": a name and a domain, then the account's page for the rest. */
export function NewAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<NewAccountValues>({ resolver: zodResolver(newAccountSchema), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const create = async (values: NewAccountValues) => {
    try {
      const account = await unwrap(
        api.POST('/v1/accounts', {
          body: { name: values.name.trim(), primaryDomain: values.primaryDomain.trim().toLowerCase() },
        }),
      );
      queryClient.setQueryData(accountQuery(account.id).queryKey, account);
      await queryClient.invalidateQueries({ queryKey: [...ACCOUNTS_KEY, 'list'] });
      form.reset(EMPTY);
      onOpenChange(false);
      await navigate({ to: '/settings/accounts/$accountId', params: { accountId: account.id } });
    } catch (error) {
      showApiError(form, error);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New account">
      <form noValidate onSubmit={form.handleSubmit(create)} className="flex flex-col gap-3 overflow-y-auto p-4">
        <FormProblems errors={errors} />
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <InputField
          label="Primary domain"
          hint="Contacts whose email is at this domain belong to the account"
          autoComplete="off"
          error={errors.primaryDomain?.message}
          {...form.register('primaryDomain')}
        />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            Create account
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
