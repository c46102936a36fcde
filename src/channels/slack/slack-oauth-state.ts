import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an admin has between "Add to Slack" and Slack sending them back. */
export const SLACK_STATE_TTL_MS = 10 * 60 * 1000;

/** Who asked to install, carried through Slack's authorize page in `state` and signed so it cannot be forged. */
export interface SlackInstallState {
  organizationId: string;
  userId: string;
}

const PURPOSE = 'switchboard slack install state\0';

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(PURPOSE).update(body).digest();
}

/** `<body>.<mac>` (base64url): the installer, an expiry and a nonce, under the server's secret key. */
export function signSlackState(key: Buffer, state: SlackInstallState, nowMs: number): string {
  const body = Buffer.from(
    JSON.stringify({
      o: state.organizationId,
      u: state.userId,
      e: nowMs + SLACK_STATE_TTL_MS,
      n: randomBytes(12).toString('base64url'),
    }),
    'utf8',
  ).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The installer a `state` names, or null when it is forged, altered or expired. */
export function readSlackState(key: Buffer, value: string, nowMs: number): SlackInstallState | null {
  const [body, signature, ...rest] = value.split('.');
  if (!body || !signature || rest.length > 0) {
    return null;
  }
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return null;
  }
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { o?: unknown; u?: unknown; e?: unknown };
    if (typeof parsed.o !== 'string' || typeof parsed.u !== 'string' || typeof parsed.e !== 'number' || parsed.e < nowMs) {
      return null;
    }
    return { organizationId: parsed.o, userId: parsed.u };
  } catch {
    return null;
  }
}
