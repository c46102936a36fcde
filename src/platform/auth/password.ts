import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AppError } from '../../lib/errors.js';
import { loadOnce } from '../../lib/load-once.js';
import { PROJECT_ROOT } from '../../project-root.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/password-rules.js';

/** scrypt's cost: N = 2^logN, block size r, parallelism p. */
interface ScryptParameters {
  logN: number;
  r: number;
  p: number;
}

/**
 * What new hashes use: N = 2^15, r = 8 (32 MiB, some 50-100 ms on one core), the floor OWASP
 * names for scrypt. Raising it later needs no migration: every hash names its own parameters, and
 * a sign-in that verifies an older hash stores a new one.
 */
const CURRENT: ScryptParameters = { logN: 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds on what a stored hash may ask for, so a damaged row cannot make a sign-in allocate gigabytes. */
const LIMITS = { logN: [10, 20], r: [1, 32], p: [1, 16] } as const;

const HASH_PATTERN = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, parameters: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** parameters.logN;
  const { r, p } = parameters;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (the PHC string format): a fresh salt per password, the parameters beside the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT, KEY_BYTES);
  return `$scrypt$ln=${CURRENT.logN},r=${CURRENT.r},p=${CURRENT.p}$${base64(salt)}$${base64(key)}`;
}

function parseHash(stored: string): { parameters: ScryptParameters; salt: Buffer; key: Buffer } | null {
  const match = HASH_PATTERN.exec(stored);
  if (!match) {
    return null;
  }
  const [, logN, r, p, salt, key] = match;
  const parameters = { logN: Number(logN), r: Number(r), p: Number(p) };
  for (const name of ['logN', 'r', 'p'] as const) {
    const [low, high] = LIMITS[name];
    if (parameters[name] < low || parameters[name] > high) {
      return null;
    }
  }
  return { parameters, salt: Buffer.from(salt ?? '', 'base64'), key: Buffer.from(key ?? '', 'base64') };
}

/** Whether `password` is the one `stored` was made from; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length === 0) {
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.parameters, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** A hash made with weaker parameters than today's, to be replaced at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.parameters.logN < CURRENT.logN ||
    parsed.parameters.r < CURRENT.r ||
    parsed.parameters.p < CURRENT.p ||
    parsed.key.length < KEY_BYTES
  );
}

/** A hash of no one's password, verified when an email has no account so that both answers take as long. */
export const hashOfNoPassword = loadOnce(() => hashPassword(randomBytes(32).toString('base64')));

/**
 * The 10,000 most common passwords, most common first, one a line, in `common-passwords.txt`: what
 * a new password is checked against (case-insensitively) before it is accepted. Read on first use
 * only, from the sources' folder whether this runs from `src/` or bundled into `dist/` (a data
 * file beside the code, as the console's build is), and kept as a Set.
 *
 * Source: the first 10,000 entries of `src/passwords.json` in the npm package
 * `@zxcvbn-ts/language-common` 4.1.3 (https://github.com/zxcvbn-ts/zxcvbn), a list ranked by
 * frequency in Mark Burnett's "10 million passwords" data set (xato.net, 2015), which SecLists'
 * common-password lists also come from. Licence: MIT, Copyright (c) 2012-2016 Dan Wheeler and
 * Dropbox, Inc.; Copyright (c) 2021 @zxcvbn-ts.
 *
 * Kept here rather than as a dependency: the package ships 49,000 entries behind a decompressor
 * (two packages, 1.4 MB) where these 10,000 are wanted.
 */
const COMMON_PASSWORDS_FILE = new URL('src/platform/auth/common-passwords.txt', PROJECT_ROOT);

const commonPasswords = loadOnce(async () => {
  const list = await readFile(COMMON_PASSWORDS_FILE, 'utf8');
  return new Set(list.split(/\r?\n/).filter((line) => line !== ''));
});

const passwordIssue = (message: string) => AppError.invalid(message, { location: 'body', path: ['password'], rule: 'password' });

/**
 * The rules of a new password: at least 12 characters (code points), at most 256, not one of the
 * 10,000 most common passwords (compared in lower case), and not the user's email address.
 */
export async function checkNewPassword(password: string, email: string): Promise<void> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    throw passwordIssue(`password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  if (length > MAX_PASSWORD_LENGTH) {
    throw passwordIssue(`password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  }
  const lowered = password.normalize('NFKC').toLowerCase();
  if ((await commonPasswords()).has(lowered)) {
    throw passwordIssue('password is one of the most common passwords; choose another');
  }
  if (lowered === email.toLowerCase()) {
    throw passwordIssue('password must not be your email address');
  }
}
