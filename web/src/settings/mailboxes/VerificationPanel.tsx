import { CheckCircle2, MailWarning } from 'lucide-react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { checkVerificationRecord, type Mailbox, resendVerificationLink, useMailboxAction } from './mailbox-queries';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

const METHODS = { link: 'the emailed link', dns: 'the DNS record', existing: 'an earlier version' } as const;

/** Where the address's proof stands, and the two ways to prove it: the emailed link, or the DNS record. */
export function VerificationPanel({ mailbox }: { mailbox: Mailbox }) {
  const resend = useMailboxAction(mailbox.id, resendVerificationLink(mailbox.id));
  const check = useMailboxAction(mailbox.id, checkVerificationRecord(mailbox.id));
  const { verification } = mailbox;
  if (verification.status === 'verified') {
    return (
      <section aria-labelledby="verification-title" className="flex items-start gap-2 text-sm">
        <CheckCircle2 size={18} aria-hidden className="mt-0.5 shrink-0 text-emerald-600" />
        <div>
          <h2 id="verification-title" className="font-semibold">
            Address verified
          </h2>
          <p className="text-zinc-600 dark:text-zinc-400">
            Verified {verification.method ? `by ${METHODS[verification.method]}` : ''} {when(verification.verifiedAt)}. The
            mailbox receives and sends.
          </p>
        </div>
      </section>
    );
  }
  return (
    <section
      aria-labelledby="verification-title"
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <div className="flex items-start gap-2">
        <MailWarning size={18} aria-hidden className="mt-0.5 shrink-0 text-amber-700 dark:text-amber-300" />
        <div>
          <h2 id="verification-title" className="font-semibold">
            Address not verified yet
          </h2>
          <p className="text-zinc-700 dark:text-zinc-300">
            Until it is, this mailbox neither receives nor sends.{' '}
            {verification.linkSentAt
              ? `A link was emailed to ${mailbox.address} ${when(verification.linkSentAt)}; it works once, until ${when(verification.linkExpiresAt)}.`
              : `Email a link to ${mailbox.address}, or publish the verification record below.`}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? 'Sending…' : 'Send the link again'}
        </Button>
        <Button disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? 'Checking…' : 'Check DNS'}
        </Button>
      </div>
      {resend.isSuccess ? <p role="status">A new link is on its way to {mailbox.address}.</p> : null}
      <ErrorNotice error={resend.error ?? check.error} />
    </section>
  );
}
