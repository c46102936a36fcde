import { MessageSquare } from 'lucide-react';
import type { TicketComment } from '../api/types';
import { Badge, type BadgeTone } from '../ui/Badge';

const SLACK_DELIVERY: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Slack queued', tone: 'neutral' },
  posting: { label: 'Slack posting', tone: 'neutral' },
  retrying: { label: 'Slack failed, retrying', tone: 'amber' },
  posted: { label: 'Posted in Slack', tone: 'green' },
  failed: { label: 'Slack post failed', tone: 'red' },
};

/** The state of a reply's post to the ticket's Slack thread (for its author and admins), with why it failed on hover. */
export function SlackDeliveryBadge({ comment }: { comment: TicketComment }) {
  const delivery = comment.slackDelivery;
  if (!delivery) {
    return null;
  }
  const state = SLACK_DELIVERY[delivery.status] ?? { label: delivery.status, tone: 'neutral' as const };
  return (
    <span title={delivery.lastError ?? undefined}>
      <Badge tone={state.tone}>
        <MessageSquare size={11} aria-hidden className="mr-0.5 inline" />
        {state.label}
      </Badge>
    </span>
  );
}
