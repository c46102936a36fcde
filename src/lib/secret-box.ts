import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * AES-256-GCM for secrets at rest (OAuth tokens, client secrets, PKCE verifiers, static headers).
 * A sealed value is `keyId:iv:tag:ciphertext` (base64url parts); the key id is derived from the
 * key, so a value sealed under another key is recognised rather than mis-decrypted. The AAD binds
 * a value to its row and column (`agent_id|server_id|field`), so a ciphertext copied elsewhere
 * does not open.
 */
export interface SecretBox {
  seal(plaintext: string, aad: string): string;
  /** Null when the value was sealed under another key or was tampered with. */
  open(sealed: string, aad: string): string | null;
}

const KEY_FILE = 'secret.key';

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) {
    throw new Error('the secret key must be 32 bytes');
  }
  const keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(
        ':',
      );
    },
    open(sealed, aad) {
      const [id, iv, tag, ciphertext] = sealed.split(':');
      if (id !== keyId || !iv || !tag || ciphertext === undefined) {
        return null;
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** `SECRET_KEY` as bytes: 64 hex digits, or base64/base64url of 32 bytes. */
export function decodeSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) {
    throw new Error('SECRET_KEY must be 32 bytes written as 64 hex digits or base64');
  }
  return key;
}

/**
 * The key the server runs with: `SECRET_KEY` when set; required with `DATABASE_URL`, since
 * PostgreSQL may be shared by several hosts that must agree on it; otherwise (the embedded
 * default) read from `DATA_DIR/secret.key`, written with mode 0600 on first start.
 */
/** The settings `resolveSecretKey` reads (a slice of `Config`, named here so lib/ imports nothing above it). */
export interface SecretKeySettings {
  SECRET_KEY?: string;
  DATABASE_URL?: string;
  DATA_DIR: string;
}

export function resolveSecretKey(config: SecretKeySettings): Buffer {
  if (config.SECRET_KEY) {
    return decodeSecretKey(config.SECRET_KEY);
  }
  if (config.DATABASE_URL) {
    throw new Error(
      'SECRET_KEY is required when DATABASE_URL is set: set it to 32 random bytes, e.g. SECRET_KEY=$(openssl rand -hex 32)',
    );
  }
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, KEY_FILE);
  try {
    return decodeSecretKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`cannot read the secret key at ${file}: ${(error as Error).message}`);
    }
  }
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: if another process wrote it first, use theirs.
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return decodeSecretKey(readFileSync(file, 'utf8'));
    }
    throw error;
  }
}
