import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { ApiError } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ImapFields } from './ImapFields';
import { type MailboxFormValues, mailboxFormSchema, mailboxFormValues } from './mailbox-form';
import { type Mailbox, mailboxTeamsQuery } from './mailbox-queries';

const DELIVERIES = [
  { value: 'smtp', label: 'SMTP forwarding', hint: 'Mail reaches this instance’s SMTP receiver (its MX, or forwarded to it).' },
  { value: 'imap', label: 'IMAP polling', hint: 'This instance fetches new mail from a mailbox at your provider.' },
] as const;

/**
 * A mailbox's settings, new or saved. A refused save keeps what was typed and shows the API's
 * words beside the field they name; a taken address (the API's 409) shows beside the address.
 */
export function MailboxForm({
  mailbox,
  submitLabel,
  onSave,
}: {
  mailbox?: Mailbox;
  submitLabel: string;
  /** Sends the values; answers the saved mailbox, which the form then shows as unchanged. */
  onSave: (values: MailboxFormValues, dirty: Partial<Record<keyof MailboxFormValues, unknown>>) => Promise<Mailbox>;
}) {
  const form = useForm<MailboxFormValues>({
    resolver: zodResolver(mailboxFormSchema),
    defaultValues: mailboxFormValues(mailbox),
  });
  const { register, handleSubmit, formState, watch, reset } = form;
  const teams = useQuery(mailboxTeamsQuery);
  useUnsavedChanges(formState.isDirty && !formState.isSubmitting);
  const delivery = watch('delivery');

  const submit = handleSubmit(async (values) => {
    try {
      reset(mailboxFormValues(await onSave(values, formState.dirtyFields)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // The only conflict a mailbox save answers: its address belongs to another mailbox.
        form.setError('address', { type: 'api', message: error.message }, { shouldFocus: true });
        return;
      }
      showApiError(form, error);
    }
  });

  const teamOptions = [
    { value: '', label: teams.isPending ? 'Loading teams…' : 'Choose a team' },
    ...(teams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
  ];
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormProblems errors={formState.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          label="Address"
          type="email"
          placeholder="support@example.com"
          hint={mailbox ? 'A new address is verified again before it receives or sends.' : undefined}
          error={formState.errors.address?.message}
          {...register('address')}
        />
        <InputField
          label="Display name"
          placeholder="Acme Support"
          error={formState.errors.displayName?.message}
          {...register('displayName')}
        />
        <SelectField
          label="Team"
          hint="New tickets from this address go to this team."
          options={teamOptions}
          error={formState.errors.teamId?.message ?? (teams.error ? teams.error.message : undefined)}
          {...register('teamId')}
        />
        <CheckboxField
          label="Default mailbox"
          hint="Sends for its team ahead of the team’s other mailboxes, and for teams without a mailbox."
          className="self-center"
          error={formState.errors.isDefault?.message}
          {...register('isDefault')}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Delivery</legend>
        {DELIVERIES.map((option) => (
          <label key={option.value} className="flex items-start gap-2 text-sm">
            <input type="radio" value={option.value} className="mt-0.5 h-4 w-4" {...register('delivery')} />
            <span>
              <span className="font-medium">{option.label}</span>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {delivery === 'imap' ? <ImapFields form={form} passwordSet={mailbox?.imap !== null && mailbox !== undefined} /> : null}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
