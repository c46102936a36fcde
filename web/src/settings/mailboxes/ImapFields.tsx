import type { UseFormReturn } from 'react-hook-form';
import { CheckboxField, InputField } from '../../ui/FormField';
import type { MailboxFormValues } from './mailbox-form';

/** Where an IMAP mailbox is fetched from; the stored password is never shown, only replaced. */
export function ImapFields({ form, passwordSet }: { form: UseFormReturn<MailboxFormValues>; passwordSet: boolean }) {
  const { register, formState } = form;
  const errors = formState.errors.imap;
  return (
    <fieldset className="grid gap-4 rounded-md border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">IMAP server</legend>
      <InputField label="IMAP host" placeholder="imap.example.com" error={errors?.host?.message} {...register('imap.host')} />
      <InputField
        label="Port"
        inputMode="numeric"
        placeholder="993 with TLS, else 143"
        error={errors?.port?.message}
        {...register('imap.port')}
      />
      <CheckboxField
        label="TLS from the start (IMAPS)"
        hint="Off: the server must offer STARTTLS."
        className="sm:col-span-2"
        error={errors?.tls?.message}
        {...register('imap.tls')}
      />
      <InputField label="Username" autoComplete="off" error={errors?.username?.message} {...register('imap.username')} />
      <InputField
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder={passwordSet ? 'Set (type to replace)' : ''}
        hint={passwordSet ? 'A password is set. Leave this empty to keep it.' : 'Stored encrypted; never shown again.'}
        error={errors?.password?.message}
        {...register('imap.password')}
      />
      <InputField label="Folder" placeholder="INBOX" error={errors?.folder?.message} {...register('imap.folder')} />
      <InputField
        label="Move taken messages to"
        placeholder="Leave empty to mark them read"
        error={errors?.processedFolder?.message}
        {...register('imap.processedFolder')}
      />
    </fieldset>
  );
}
