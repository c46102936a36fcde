import { createHash } from 'node:crypto';
import { createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { ULID_PATTERN } from '../../lib/ids.js';

/** Where uploaded files live: `ATTACHMENTS_DIR`, or `attachments` inside `DATA_DIR`. */
export function attachmentsRoot(config: Pick<Config, 'ATTACHMENTS_DIR' | 'DATA_DIR'>): string {
  return resolve(config.ATTACHMENTS_DIR ?? join(config.DATA_DIR, 'attachments'));
}

/** One folder per organization; the file is named by the attachment id, never by the client. */
export function storageKey(organizationId: string, attachmentId: string): string {
  return `${organizationId}/${attachmentId}`;
}

const ULID = ULID_PATTERN.slice(1, -1);
const KEY_PATTERN = new RegExp(`^${ULID}/${ULID}$`);

export interface StoredFile {
  size: number;
  sha256: string;
}

export interface AttachmentStorage {
  /**
   * Streams `source` to `key` through a temporary file, counting and hashing on the way. The file
   * appears under `key` only once the stream ended and `beforeCommit` (if given) did not throw;
   * on any error the partial file is removed and the error passed on.
   */
  write(key: string, source: Readable, beforeCommit?: () => void): Promise<StoredFile>;
  /** The file as a stream with its size on disk, or null when it is missing. */
  open(key: string): Promise<{ stream: ReadStream; size: number } | null>;
  remove(key: string): Promise<void>;
}

export function createAttachmentStorage(root: string): AttachmentStorage {
  const pathOf = (key: string) => {
    if (!KEY_PATTERN.test(key)) {
      throw new Error(`Invalid attachment storage key: ${key}`);
    }
    return join(root, key);
  };

  return {
    async write(key, source, beforeCommit) {
      const target = pathOf(key);
      const partial = `${target}.partial`;
      await mkdir(dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      const output = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(source, meter, output);
        beforeCommit?.();
        await rename(partial, target);
      } catch (error) {
        // A source that fails at once can beat the file's opening: wait for the stream to let go
        // of the file, or it would be created after it was removed.
        if (!output.closed) {
          await new Promise<void>((resolve) => output.once('close', () => resolve()));
        }
        await rm(partial, { force: true });
        throw error;
      }
      return { size, sha256: hash.digest('hex') };
    },

    async open(key) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return null;
        }
        throw error;
      }
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
