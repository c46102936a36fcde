import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, decodeSecretKey, resolveSecretKey } from './secret-box.js';

// No database here: sealing and key handling only.

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('seals to keyId:iv:tag:ciphertext with a fresh IV, and opens with the same AAD only', () => {
    const first = box.seal('refresh-token-value', 'agent|server|tokens');
    const second = box.seal('refresh-token-value', 'agent|server|tokens');
    expect(first).toMatch(/^[\w-]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('refresh-token-value');
    expect(box.open(first, 'agent|server|tokens')).toBe('refresh-token-value');
    expect(box.open(first, 'agent|other|tokens')).toBeNull();
  });

  it('does not open a tampered value or one sealed under another key', () => {
    const sealed = box.seal('secret', 'aad');
    const [id, iv, tag, ciphertext] = sealed.split(':');
    const flipped = `${ciphertext?.[0] === 'A' ? 'B' : 'A'}${ciphertext?.slice(1)}`;
    expect(box.open([id, iv, tag, flipped].join(':'), 'aad')).toBeNull();
    expect(createSecretBox(randomBytes(32)).open(sealed, 'aad')).toBeNull();
  });

  it('reads SECRET_KEY as 64 hex digits or base64', () => {
    expect(decodeSecretKey(key.toString('hex'))).toEqual(key);
    expect(decodeSecretKey(key.toString('base64'))).toEqual(key);
    expect(decodeSecretKey(key.toString('base64url'))).toEqual(key);
    expect(() => decodeSecretKey('abcd')).toThrow('SECRET_KEY must be 32 bytes');
  });
});

describe('resolveSecretKey', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-key-'));
    dirs.push(dir);
    return join(dir, 'data');
  };

  it('prefers SECRET_KEY', () => {
    const key = randomBytes(32);
    expect(resolveSecretKey({ SECRET_KEY: key.toString('hex'), DATA_DIR: dataDir() })).toEqual(key);
  });

  it('refuses PostgreSQL without SECRET_KEY, in one line', () => {
    expect(() => resolveSecretKey({ DATABASE_URL: 'postgres://db/switchboard', DATA_DIR: dataDir() })).toThrow(
      /^SECRET_KEY is required when DATABASE_URL is set: .*openssl rand -hex 32\)$/,
    );
  });

  it('generates the embedded default once under DATA_DIR with mode 0600, and keeps it', () => {
    const dir = dataDir();
    const key = resolveSecretKey({ DATA_DIR: dir });
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key.toString('hex'));
    expect(resolveSecretKey({ DATA_DIR: dir })).toEqual(key);
  });
});
