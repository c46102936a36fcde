import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../../auth/session';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { InputField } from '../../ui/FormField';
import { type Mailbox, sendTestEmail } from './mailbox-queries';

/** A short email from the mailbox's address, through the outbox as every email goes, to check sending works. */
export function TestEmailPanel({ mailbox }: { mailbox: Mailbox }) {
  const me = useMe();
  const [to, setTo] = useState('');
  const send = useMutation({ mutationFn: () => sendTestEmail(mailbox.id, to.trim() || undefined) });
  const verified = mailbox.verification.status === 'verified';
  return (
    <section aria-labelledby="test-email-title" className="flex flex-col gap-3">
      <div>
        <h2 id="test-email-title" className="text-base font-semibold">
          Test email
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {verified
            ? `Sends a short message from ${mailbox.address}, the way replies to tickets are sent.`
            : 'Available once the address is verified: an unverified mailbox sends nothing.'}
        </p>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate();
        }}
      >
        <InputField
          label="Send to"
          type="email"
          placeholder={me.user.email}
          hint="Leave empty to send it to yourself."
          className="min-w-56 flex-1"
          value={to}
          onChange={(event) => setTo(event.target.value)}
        />
        <Button type="submit" variant="primary" disabled={!verified || send.isPending} className="mb-5">
          {send.isPending ? 'Sending…' : 'Send test email'}
        </Button>
      </form>
      {send.data ? (
        <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
          Test email to {send.data.to} queued ({send.data.status}). If it does not arrive, its delivery error shows in the outbox.
        </p>
      ) : null}
      <ErrorNotice error={send.error} />
    </section>
  );
}
