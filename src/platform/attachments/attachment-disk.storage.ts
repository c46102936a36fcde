import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import type { AttachmentStorage } from './attachment.storage.js';

/** Where uploaded files live on disk: `ATTACHMENTS_DIR`, or `attachments` inside `DATA_DIR`. */
export function attachmentsRoot(config: Pick<Config, 'ATTACHMENTS_DIR' | 'DATA_DIR'>): string {
  return resolve(config.ATTACHMENTS_DIR ?? join(config.DATA_DIR, 'attachments'));
}

const ULID = ULID_PATTERN.slice(1, -1);
const KEY_PATTERN = new RegExp(`^${ULID}/${ULID}$`);

/**
 * Files in a folder of this machine: one folder per organization, each file named by the
 * attachment id, never by the client. A file is written under a temporary name and appears under
 * its key once complete.
 */
export function createDiskStorage(root: string): AttachmentStorage {
  const pathOf = (key: string) => {
    if (!KEY_PATTERN.test(key)) {
      throw new Error(`Invalid attachment storage key: ${key}`);
    }
    return join(root, key);
  };

  return {
    keyFor: (organizationId, attachmentId) => `${organizationId}/${attachmentId}`,

    async write(db, key, source, record) {
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
      // Until recorded, the file has no row and cannot be reached; a failed record removes it.
      try {
        return await record({ size, sha256: hash.digest('hex') }, db);
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
    },

    async writeWithin(_trx, key, data) {
      const target = pathOf(key);
      const partial = `${target}.partial`;
      await mkdir(dirname(target), { recursive: true });
      try {
        await writeFile(partial, data, { flag: 'wx' });
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    },

    async discard(key) {
      await rm(pathOf(key), { force: true });
    },

    async open(_db, key) {
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
  };
}
