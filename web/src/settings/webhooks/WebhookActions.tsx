import { RefreshCw, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import {
  attemptProblem,
  rotateSecret,
  sendTestEvent,
  useWebhookAction,
  type Webhook,
  type WebhookDelivery,
} from './webhook-queries';

/** What an admin does to a webhook beside its settings: test it, rotate its secret, delete it. */
export function WebhookActions({
  webhook,
  onSecret,
  onDelete,
  deleting,
}: {
  webhook: Webhook;
  onSecret: (secret: string) => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [tested, setTested] = useState<WebhookDelivery | null>(null);
  const test = useWebhookAction(webhook.id, sendTestEvent(webhook.id), setTested);
  const rotate = useWebhookAction(webhook.id, rotateSecret(webhook.id), (answer) => {
    setConfirm(null);
    onSecret(answer.secret);
  });
  const attempt = tested?.attempts.at(-1);
  return (
    <section aria-label="Webhook actions" className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={test.isPending} onClick={() => test.mutate()}>
          <Send size={16} aria-hidden />
          {test.isPending ? 'Sending…' : 'Send test event'}
        </Button>
        <Button onClick={() => setConfirm('rotate')}>
          <RefreshCw size={16} aria-hidden />
          Rotate secret
        </Button>
        <Button variant="ghost" onClick={() => setConfirm('delete')}>
          <Trash2 size={16} aria-hidden />
          Delete webhook
        </Button>
      </div>
      {tested ? (
        <p role="status" className="text-sm">
          Test event {tested.status === 'delivered' ? 'delivered' : 'not delivered'}
          {attempt
            ? `: ${attempt.statusCode === null ? 'no response' : `HTTP ${attempt.statusCode}`} in ${attempt.latencyMs} ms`
            : ''}
          {attempt && attemptProblem(attempt) ? ` (${attemptProblem(attempt)})` : ''}.
        </p>
      ) : null}
      <ErrorNotice error={test.error ?? rotate.error} />
      <ConfirmDialog
        open={confirm === 'rotate'}
        onOpenChange={(open) => setConfirm(open ? 'rotate' : null)}
        title="Rotate the signing secret?"
        description="A new secret is shown once. The old one keeps signing beside it for 24 hours, while your receiver switches."
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => setConfirm(open ? 'delete' : null)}
        title="Delete this webhook?"
        description="Its deliveries are deleted with it, and no more events are sent to its URL."
        confirmLabel="Delete webhook"
        pending={deleting}
        onConfirm={onDelete}
      />
    </section>
  );
}
