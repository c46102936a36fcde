import { PageHeader } from '../../ui/PageHeader';

export function MailboxesPage() {
  return <PageHeader title="Mailboxes" />;
}
