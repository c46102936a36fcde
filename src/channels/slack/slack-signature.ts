import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses to be trusted about time beyond this: older (or further ahead) requests may be replays. */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 5 * 60;

export type SlackSignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing_signature' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature' };

/**
 * Slack's request signing (v0): `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw
 * body>` under the app's signing secret, the timestamp within five minutes of now. Compared in
 * constant time, over the body's bytes exactly as they arrived.
 */
export function verifySlackSignature(input: {
  signingSecret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  nowSeconds: number;
}): SlackSignatureCheck {
  if (!input.timestamp || !input.signature) {
    return { ok: false, reason: 'missing_signature' };
  }
  if (!/^\d{1,12}$/.test(input.timestamp)) {
    return { ok: false, reason: 'bad_timestamp' };
  }
  if (Math.abs(input.nowSeconds - Number(input.timestamp)) > SLACK_SIGNATURE_WINDOW_SECONDS) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  const expected = Buffer.from(signSlackRequest(input.signingSecret, input.timestamp, input.rawBody), 'utf8');
  const given = Buffer.from(input.signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad_signature' };
  }
  return { ok: true };
}

/** The `X-Slack-Signature` of a body sent at `timestamp` (seconds): what Slack sends, and what tests send as Slack. */
export function signSlackRequest(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}
