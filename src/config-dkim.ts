import { createPrivateKey } from 'node:crypto';
import type { Config } from './config.js';

/** DKIM signing of outbound email, from `DKIM_DOMAIN`, `DKIM_SELECTOR` and `DKIM_PRIVATE_KEY`: part of `config.ts`, apart for its size. */

const DKIM_KEYS = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const;
/** RFC 8301: verifiers may refuse shorter RSA keys. */
const DKIM_MIN_KEY_BITS = 1024;

/** `DKIM_PRIVATE_KEY` as PEM: a value kept on one line (an env file) writes its line breaks as `\n`. */
function dkimPem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

/** What is wrong with a DKIM key (nodemailer signs RSA only, and skips the signature silently when it cannot sign), or null. */
function dkimKeyProblem(value: string): string | null {
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(dkimPem(value));
  } catch {
    return 'DKIM_PRIVATE_KEY must be a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----), unencrypted; it does not parse';
  }
  if (key.asymmetricKeyType !== 'rsa') {
    return `DKIM_PRIVATE_KEY must be an RSA key (nodemailer signs rsa-sha256); got ${key.asymmetricKeyType ?? 'another type'}`;
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < DKIM_MIN_KEY_BITS) {
    return `DKIM_PRIVATE_KEY must have at least ${DKIM_MIN_KEY_BITS} bits (2048 recommended); got ${bits}`;
  }
  return null;
}

/** DKIM is all three variables or none, with a key that signs. */
export function checkDkim(raw: Record<string, unknown>, problems: Map<string, string>): void {
  const set = DKIM_KEYS.filter((key) => raw[key] !== undefined);
  if (set.length > 0 && set.length < DKIM_KEYS.length) {
    const missing = DKIM_KEYS.filter((key) => raw[key] === undefined);
    problems.set(
      missing[0] as string,
      `DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together: ${set.join(' and ')} set, ${missing.join(' and ')} missing`,
    );
  }
  if (typeof raw.DKIM_PRIVATE_KEY === 'string') {
    const problem = dkimKeyProblem(raw.DKIM_PRIVATE_KEY);
    if (problem) {
      problems.set('DKIM_PRIVATE_KEY', problem);
    }
  }
}

/** nodemailer's `dkim` option when DKIM signing is configured, else null. */
export function dkimSigningOf(
  config: Pick<Config, 'DKIM_DOMAIN' | 'DKIM_SELECTOR' | 'DKIM_PRIVATE_KEY'>,
): { domainName: string; keySelector: string; privateKey: string } | null {
  if (!config.DKIM_DOMAIN || !config.DKIM_SELECTOR || !config.DKIM_PRIVATE_KEY) {
    return null;
  }
  return {
    domainName: config.DKIM_DOMAIN.toLowerCase(),
    keySelector: config.DKIM_SELECTOR,
    privateKey: dkimPem(config.DKIM_PRIVATE_KEY),
  };
}
