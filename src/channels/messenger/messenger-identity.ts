import { normaliseSignInEmail } from '../../help-center/contact-sign-in/contact-sign-in.service.js';
import { loadOnce } from '../../lib/load-once.js';

/** jose, imported on the first identity token: most processes may never verify one. */
const loadJose = loadOnce(() => import('jose'));

/** How far ahead a token's `exp` may be: hosts sign short-lived tokens, so a longer one is refused. */
export const MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
/** The clock difference between the host and Switchboard that `exp` and `nbf` forgive. */
export const CLOCK_SKEW_SECONDS = 30;
const MAX_SUBJECT_LENGTH = 255;
const MAX_NAME_LENGTH = 200;

/** Who the host says the visitor is, from a token it signed with the help center's widget secret. */
export interface VerifiedIdentity {
  /** The host's own id for its customer (`sub`). */
  subject: string;
  /** Lower case, a valid address. */
  email: string;
  name: string | null;
  /** An account of the organization named by its id or name, linked when one matches. */
  account: string | null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A claim that is a printable string of at most `max` characters once trimmed, else null. */
function textClaim(value: unknown, max: number): string | null {
  if (typeof value !== 'string') {
    return null;
  }
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.length <= max && !CONTROL.test(trimmed) ? trimmed : null;
}

/**
 * The identity a host's JWT carries, or null when it is not one to trust: signed other than with
 * HS256 and `secret` (unsigned `alg: none` included), expired (beyond the clock skew), not yet
 * valid, expiring more than 24 hours ahead, or missing a usable `sub` or `email`. `name` and
 * `account` are optional; a malformed one is ignored rather than trusted.
 */
export async function verifyIdentityToken(token: string, secret: string, now: Date): Promise<VerifiedIdentity | null> {
  const { jwtVerify, errors } = await loadJose();
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['sub', 'exp'],
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      return null;
    }
    throw error;
  }
  const exp = payload.exp;
  if (typeof exp !== 'number' || exp > now.getTime() / 1000 + MAX_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
    return null;
  }
  const subject = textClaim(payload.sub, MAX_SUBJECT_LENGTH);
  const email = typeof payload.email === 'string' ? normaliseSignInEmail(payload.email) : null;
  if (!subject || !email) {
    return null;
  }
  return {
    subject,
    email,
    name: textClaim(payload.name, MAX_NAME_LENGTH),
    account: textClaim(payload.account, MAX_NAME_LENGTH),
  };
}
