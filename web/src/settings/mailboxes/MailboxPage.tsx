import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { DnsSetupPanel } from './DnsSetupPanel';
import { MailboxForm } from './MailboxForm';
import { MailboxStatus } from './MailboxStatus';
import { updateMailboxBody } from './mailbox-form';
import { deleteMailbox, MAILBOXES_KEY, type Mailbox, mailboxQuery, updateMailbox } from './mailbox-queries';
import { TestEmailPanel } from './TestEmailPanel';
import { VerificationPanel } from './VerificationPanel';

/** One mailbox: whether its address is proved, its DNS set-up, a test email, and its settings. */
export function MailboxPage() {
  const { mailboxId } = useParams({ from: '/signed-in/settings/mailboxes/$mailboxId' });
  const mailbox = useQuery(mailboxQuery(mailboxId));
  if (mailbox.error) {
    return (
      <div className="p-4">
        <ErrorNotice error={mailbox.error} />
        <BackToMailboxes />
      </div>
    );
  }
  if (!mailbox.data) {
    return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading the mailbox…</p>;
  }
  return <MailboxDetails mailbox={mailbox.data} />;
}

function BackToMailboxes() {
  return (
    <Link to="/settings/mailboxes" className="inline-block text-sm text-blue-700 hover:underline dark:text-blue-400">
      ← All mailboxes
    </Link>
  );
}

function MailboxDetails({ mailbox }: { mailbox: Mailbox }) {
  const queryClient = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: deleteMailbox(mailbox.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: mailboxQuery(mailbox.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: MAILBOXES_KEY });
      await navigate({ to: '/settings/mailboxes' });
    },
  });
  return (
    <div>
      <PageHeader
        title={mailbox.address}
        description={mailbox.displayName}
        actions={
          <>
            <MailboxStatus mailbox={mailbox} />
            <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
              <Trash2 size={16} aria-hidden />
              Delete mailbox
            </Button>
          </>
        }
      />
      <div className="mx-auto flex max-w-3xl flex-col gap-8 p-4">
        <BackToMailboxes />
        <VerificationPanel mailbox={mailbox} />
        {mailbox.imap?.lastError ? <ErrorNotice error={`The last IMAP poll failed: ${mailbox.imap.lastError}`} /> : null}
        <DnsSetupPanel mailboxId={mailbox.id} verified={mailbox.verification.status === 'verified'} />
        <TestEmailPanel mailbox={mailbox} />
        <section aria-labelledby="settings-title" className="flex flex-col gap-3">
          <h2 id="settings-title" className="text-base font-semibold">
            Settings
          </h2>
          <MailboxForm
            mailbox={mailbox}
            submitLabel="Save changes"
            onSave={async (values, dirty) => {
              const saved = await updateMailbox(mailbox.id, updateMailboxBody(values, dirty));
              queryClient.setQueryData(mailboxQuery(mailbox.id).queryKey, saved);
              void queryClient.invalidateQueries({ queryKey: MAILBOXES_KEY });
              return saved;
            }}
          />
        </section>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${mailbox.address}?`}
        description="Its address takes no more mail. The tickets and messages it brought stay."
        confirmLabel="Delete mailbox"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      {remove.error ? <ErrorNotice error={remove.error} className="m-4" /> : null}
    </div>
  );
}
