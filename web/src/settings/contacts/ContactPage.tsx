import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormProblems } from '../../ui/FormProblems';
import { PageHeader } from '../../ui/PageHeader';
import { RelatedTickets } from '../../ui/RelatedTickets';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ContactFields } from './ContactFields';
import { type ContactFormValues, contactBodyOf, contactFormSchema, contactFormValuesOf } from './contact-form';
import { CONTACTS_KEY, type Contact, contactQuery, fullName } from './contact-queries';

/** A customer contact: their details, their accounts, their tickets; deleted after a confirmation. */
export function ContactPage() {
  const { contactId } = useParams({ strict: false }) as { contactId: string };
  const contact = useQuery(contactQuery(contactId));
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <PageHeader
        title={contact.data ? fullName(contact.data) : 'Contact'}
        description={contact.data?.email}
        actions={
          <>
            <Link
              to="/settings/contacts"
              className="inline-flex items-center gap-1 self-center text-sm text-blue-700 hover:underline dark:text-blue-400"
            >
              <ArrowLeft size={14} aria-hidden />
              All contacts
            </Link>
            {contact.data ? (
              <Button variant="danger" onClick={() => setDeleting(true)}>
                <Trash2 size={14} aria-hidden />
                Delete contact
              </Button>
            ) : null}
          </>
        }
      />
      <ErrorNotice error={contact.error} className="m-4" />
      {contact.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {contact.data ? (
        <div className="flex max-w-3xl flex-col gap-6 p-4">
          <ContactDetails key={contact.data.updatedAt} contact={contact.data} />
          <ContactAccounts contact={contact.data} />
          <RelatedTickets
            filter={{ customerContactId: contact.data.id }}
            emptyText="No tickets from this contact yet. Tickets they email in show here."
          />
          <DeleteContact contact={contact.data} open={deleting} onOpenChange={setDeleting} />
        </div>
      ) : null}
    </>
  );
}

function ContactDetails({ contact }: { contact: Contact }) {
  const queryClient = useQueryClient();
  const form = useForm<ContactFormValues>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: contactFormValuesOf(contact),
  });
  useUnsavedChanges(form.formState.isDirty);
  const save = async (values: ContactFormValues) => {
    try {
      const saved = await unwrap(
        api.PUT('/v1/accounts/contacts/{contactId}', {
          params: { path: { contactId: contact.id } },
          body: contactBodyOf(values),
        }),
      );
      form.reset(contactFormValuesOf(saved));
      queryClient.setQueryData(contactQuery(contact.id).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: [...CONTACTS_KEY, 'list'] });
    } catch (error) {
      showApiError(form, error);
    }
  };
  return (
    <section aria-label="Details" className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold">Details</h2>
      <form noValidate onSubmit={form.handleSubmit(save)} className="flex flex-col gap-3">
        <FormProblems errors={form.formState.errors} />
        <ContactFields form={form} />
        <div>
          <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
            Save
          </Button>
        </div>
      </form>
    </section>
  );
}

function ContactAccounts({ contact }: { contact: Contact }) {
  return (
    <section aria-label="Accounts" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">Accounts</h2>
      {contact.accounts.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Not part of an account. Accounts are linked by email domain.</p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {contact.accounts.map((account) => (
            <li key={account.id}>
              <Link
                to="/settings/accounts/$accountId"
                params={{ accountId: account.id }}
                className="text-sm text-blue-700 hover:underline dark:text-blue-400"
              >
                {account.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DeleteContact({
  contact,
  open,
  onOpenChange,
}: {
  contact: Contact;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/accounts/contacts/{contactId}', { params: { path: { contactId: contact.id } } }));
      onOpenChange(false);
      queryClient.removeQueries({ queryKey: contactQuery(contact.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: [...CONTACTS_KEY, 'list'] });
      await navigate({ to: '/settings/contacts' });
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <ErrorNotice error={error} />
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title={`Delete ${fullName(contact)}?`}
        description="The contact leaves every list and account. Their tickets stay, with their email address."
        confirmLabel="Delete contact"
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
