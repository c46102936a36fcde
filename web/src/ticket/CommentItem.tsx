import { Lock, Mail } from 'lucide-react';
import type { TicketComment, TicketEmail } from '../api/types';
import { Avatar } from '../ui/Avatar';
import { Badge, type BadgeTone } from '../ui/Badge';
import { Markdown } from '../ui/Markdown';
import { CommentAttachments } from './CommentAttachments';
import { SlackDeliveryBadge } from './SlackDeliveryBadge';

/** Who wrote it, as the reader knows them: the customer's name for a customer's comment. */
export function authorName(comment: TicketComment): string {
  if (comment.impersonatedUserName) {
    return comment.impersonatedUserName;
  }
  if (comment.customerContactId && !comment.authorId) {
    const name = [comment.customerContactFirstName, comment.customerContactLastName].filter(Boolean).join(' ');
    return name || comment.customerContactEmail || 'Customer';
  }
  return comment.author ?? 'Someone';
}

const DELIVERY: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Email queued', tone: 'neutral' },
  sending: { label: 'Email sending', tone: 'neutral' },
  sent: { label: 'Email sent', tone: 'green' },
  failed: { label: 'Email failed, retrying', tone: 'amber' },
  undeliverable: { label: 'Email undeliverable', tone: 'red' },
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The email state of a comment: its delivery to the customer, or that it came in by email. */
function EmailState({ comment, email }: { comment: TicketComment; email: TicketEmail | undefined }) {
  // The ticket's email list is refreshed while a delivery is under way; the send answer's state is older.
  const delivery = email?.delivery ?? comment.emailDelivery ?? null;
  if (delivery) {
    const state = DELIVERY[delivery.status] ?? { label: delivery.status, tone: 'neutral' as const };
    return (
      <span title={delivery.lastError ?? undefined}>
        <Badge tone={state.tone}>
          <Mail size={11} aria-hidden className="mr-0.5 inline" />
          {state.label}
        </Badge>
      </span>
    );
  }
  if (email?.direction === 'inbound') {
    return (
      <Badge tone="blue">
        <Mail size={11} aria-hidden className="mr-0.5 inline" />
        Received by email
      </Badge>
    );
  }
  return null;
}

/** One comment: internal notes amber and labelled, customers' comments tinted blue, the rest plain. */
export function CommentItem({
  comment,
  email,
  highlighted,
}: {
  comment: TicketComment;
  email: TicketEmail | undefined;
  highlighted?: boolean;
}) {
  const internal = comment.commentVisibility === 'private';
  const fromCustomer = comment.authorUserType === 'CUSTOMER' || (comment.customerContactId !== null && !comment.authorId);
  const name = authorName(comment);
  const kind = internal ? 'Internal note' : fromCustomer ? 'Customer message' : 'Reply';
  const tone = internal
    ? 'border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40'
    : fromCustomer
      ? 'border-blue-200 bg-blue-50/60 dark:border-blue-900 dark:bg-blue-950/30'
      : 'border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900';
  return (
    <article
      id={`comment-${comment.id}`}
      aria-label={`${kind} by ${name}`}
      data-visibility={comment.commentVisibility}
      className={`scroll-mt-4 rounded-lg border p-3 ${tone} ${highlighted ? 'ring-2 ring-blue-500' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Avatar name={name} url={comment.authorAvatarUrl ?? comment.customerContactAvatarUrl} size={24} />
        <span className="text-sm font-medium">{name}</span>
        {internal ? (
          <Badge tone="amber">
            <Lock size={11} aria-hidden className="mr-0.5 inline" />
            Internal note
          </Badge>
        ) : fromCustomer ? (
          <Badge tone="blue">Customer</Badge>
        ) : null}
        <EmailState comment={comment} email={email} />
        <SlackDeliveryBadge comment={comment} />
        <time dateTime={comment.createdAt} className="ml-auto text-xs text-zinc-500 dark:text-zinc-400">
          {when.format(new Date(comment.createdAt))}
          {comment.isEdited ? ' (edited)' : ''}
        </time>
      </div>
      <Markdown html={comment.contentHtml} className="mt-1" />
      <CommentAttachments ids={comment.attachments} />
    </article>
  );
}
