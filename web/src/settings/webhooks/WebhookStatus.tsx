import { Badge } from '../../ui/Badge';
import type { Webhook } from './webhook-queries';

/** Whether deliveries go out: on, paused by an admin, or stopped after three days of failures. */
export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  if (webhook.disabledReason === 'failing') {
    return <Badge tone="red">Disabled: failing</Badge>;
  }
  if (!webhook.enabled) {
    return <Badge>Disabled</Badge>;
  }
  if (webhook.failingSince) {
    return <Badge tone="amber">Failing</Badge>;
  }
  return <Badge tone="green">Enabled</Badge>;
}
