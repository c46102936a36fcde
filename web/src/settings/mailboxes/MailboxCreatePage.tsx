import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { MailboxForm } from './MailboxForm';
import { createMailboxBody } from './mailbox-form';
import { createMailbox, MAILBOXES_KEY, mailboxQuery } from './mailbox-queries';

/** A new support address; once saved, its page shows how to verify it and set its DNS up. */
export function MailboxCreatePage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [createdId, setCreatedId] = useState<string | null>(null);
  // After the form has shown itself saved (so leaving it asks nothing), open the new mailbox.
  useEffect(() => {
    if (createdId) {
      void navigate({ to: '/settings/mailboxes/$mailboxId', params: { mailboxId: createdId } });
    }
  }, [createdId, navigate]);
  return (
    <div>
      <PageHeader title="New mailbox" description="A support address whose email becomes tickets of a team." />
      <div className="mx-auto max-w-3xl p-4">
        <Link to="/settings/mailboxes" className="mb-3 inline-block text-sm text-blue-700 hover:underline dark:text-blue-400">
          ← All mailboxes
        </Link>
        <MailboxForm
          submitLabel="Create mailbox"
          onSave={async (values) => {
            const mailbox = await createMailbox(createMailboxBody(values));
            queryClient.setQueryData(mailboxQuery(mailbox.id).queryKey, mailbox);
            void queryClient.invalidateQueries({ queryKey: MAILBOXES_KEY });
            setCreatedId(mailbox.id);
            return mailbox;
          }}
        />
      </div>
    </div>
  );
}
