import { Badge } from '../../ui/Badge';
import type { Mailbox } from './mailbox-queries';

/** Whether the mailbox works: verified, and for IMAP whether its last poll failed. */
export function MailboxStatus({ mailbox }: { mailbox: Mailbox }) {
  if (mailbox.verification.status !== 'verified') {
    return <Badge tone="amber">Unverified</Badge>;
  }
  if (mailbox.imap?.lastError) {
    return <Badge tone="red">Polling fails</Badge>;
  }
  return <Badge tone="green">Verified</Badge>;
}
