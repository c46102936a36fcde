import { randomBytes } from 'node:crypto';
import { loadOnce } from '../../lib/load-once.js';
import type { SecretBox } from '../../lib/secret-box.js';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of
 * random bytes, and `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * for each secret that signs, space-separated, so a receiver holding either the new or the
 * previous secret after a rotation verifies with any Standard Webhooks library.
 */

const SECRET_BYTES = 32;

/** The signer, imported on the first delivery: most processes may never send one. */
const loadStandardWebhooks = loadOnce(() => import('standardwebhooks'));

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The sealed secrets of a webhook open with the same AAD in either column (see `rotateWebhookSecret`). */
function secretAad(webhookId: string): string {
  return `webhook|${webhookId}`;
}

export function sealWebhookSecret(box: SecretBox, webhookId: string, secret: string): string {
  return box.seal(secret, secretAad(webhookId));
}

/** Null when the value was sealed under another `SECRET_KEY`. */
export function openWebhookSecret(box: SecretBox, webhookId: string, sealed: string): string | null {
  return box.open(sealed, secretAad(webhookId));
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers of a message, signed with every secret given. */
export async function signMessage(
  secrets: readonly string[],
  message: { id: string; at: Date; body: string },
): Promise<SignedHeaders> {
  const { Webhook } = await loadStandardWebhooks();
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(message.id, message.at, message.body)).join(' '),
  };
}
