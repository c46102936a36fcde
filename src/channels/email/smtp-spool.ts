import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { headerBlockEnd, MAX_HEADER_BLOCK } from './inbound-message.js';

/** A message written to its spool file as it arrived, with what the receiver needs before reading it again. */
export interface SpooledMessage {
  kind: 'spooled';
  path: string;
  size: number;
  /** SHA-256 (hex) of the bytes: the name of a message without a Message-ID. */
  sha256: string;
  /** The header block (up to `MAX_HEADER_BLOCK`), kept in memory as it went by. */
  head: Buffer;
  /** Nothing but white space (a 0-byte message included). */
  blank: boolean;
}

function isBlank(bytes: Buffer): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a);
}

/**
 * Writes a message to `path` as its chunks arrive, never holding more of it than a chunk and the
 * header block (the socket is paused while the file catches up). Past `limit` bytes it stops at
 * once: the file is removed, the rest of the stream is read and dropped, and the promise answers
 * `too_large` without waiting for the end (the SMTP reply still waits for it, as the protocol does).
 */
export function spoolMessage(stream: Readable, path: string, limit: number): Promise<SpooledMessage | { kind: 'too_large' }> {
  return new Promise((resolve, reject) => {
    const output = createWriteStream(path, { flags: 'wx' });
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let headDone = false;
    let size = 0;
    let blank = true;
    let settled = false;
    const stop = () => {
      settled = true;
      stream.resume();
      output.destroy();
      return rm(path, { force: true }).catch(() => undefined);
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) {
        return;
      }
      size += chunk.length;
      if (size > limit) {
        void stop().then(() => resolve({ kind: 'too_large' }));
        return;
      }
      hash.update(chunk);
      blank &&= isBlank(chunk);
      if (!headDone) {
        head = Buffer.concat([head, chunk]);
        const end = headerBlockEnd(head);
        if (end !== -1 || head.length >= MAX_HEADER_BLOCK) {
          head = Buffer.from(head.subarray(0, end === -1 ? MAX_HEADER_BLOCK : end));
          headDone = true;
        }
      }
      if (!output.write(chunk)) {
        stream.pause();
        output.once('drain', () => {
          if (!settled) {
            stream.resume();
          }
        });
      }
    });
    stream.once('end', () => {
      if (settled) {
        return;
      }
      output.end(() => {
        settled = true;
        resolve({ kind: 'spooled', path, size, sha256: hash.digest('hex'), head, blank });
      });
    });
    const fail = (error: Error) => {
      if (!settled) {
        void stop().then(() => reject(error));
      }
    };
    stream.once('error', fail);
    output.once('error', fail);
  });
}

/**
 * Bytes of messages read into memory at once, across the receiver's connections: a message waits
 * for its turn on disk, so many large messages arriving together are read a budget's worth at a time.
 * A message larger than the whole budget is read alone.
 */
export interface ByteBudget {
  /** Waits until `bytes` fit (or nothing else is read), then counts them. */
  acquire(bytes: number): Promise<void>;
  release(bytes: number): void;
}

export function createByteBudget(budget: number): ByteBudget {
  let used = 0;
  const waiting: { bytes: number; start: () => void }[] = [];
  const fits = (bytes: number) => used === 0 || used + bytes <= budget;
  return {
    async acquire(bytes: number): Promise<void> {
      if (waiting.length === 0 && fits(bytes)) {
        used += bytes;
        return;
      }
      await new Promise<void>((start) => waiting.push({ bytes, start }));
    },
    release(bytes: number): void {
      used -= bytes;
      for (let next = waiting[0]; next && fits(next.bytes); next = waiting[0]) {
        waiting.shift();
        used += next.bytes;
        next.start();
      }
    },
  };
}
