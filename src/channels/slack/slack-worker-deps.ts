import type { Metrics } from '../../lib/metrics.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import type { SlackDeps } from './slack-install.service.js';

/**
 * What Slack's background work needs: the install's deps, and the ticket services' (attachments for
 * files customers share; `tickets_created_total` counts tickets made from Slack).
 */
export interface SlackWorkerDeps extends SlackDeps {
  storage: AttachmentStorage;
  metrics?: Pick<Metrics, 'ticketCreated'>;
}
