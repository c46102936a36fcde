import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { ContactFields } from './ContactFields';
import { type ContactFormValues, contactBodyOf, contactFormSchema, NEW_CONTACT } from './contact-form';
import { CONTACTS_KEY, contactQuery } from './contact-queries';

/** "New contact": a customer added by hand, then their page. */
export function NewContactDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<ContactFormValues>({ resolver: zodResolver(contactFormSchema), defaultValues: NEW_CONTACT });
  const create = async (values: ContactFormValues) => {
    try {
      const contact = await unwrap(api.POST('/v1/accounts/contacts', { body: contactBodyOf(values) }));
      queryClient.setQueryData(contactQuery(contact.id).queryKey, contact);
      await queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
      form.reset(NEW_CONTACT);
      onOpenChange(false);
      await navigate({ to: '/settings/contacts/$contactId', params: { contactId: contact.id } });
    } catch (error) {
      showApiError(form, error);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New contact">
      <form noValidate onSubmit={form.handleSubmit(create)} className="flex flex-col gap-3 overflow-y-auto p-4">
        <FormProblems errors={form.formState.errors} />
        <ContactFields form={form} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
            Create contact
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
