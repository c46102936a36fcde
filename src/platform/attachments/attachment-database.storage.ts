import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import { findAttachmentChunks, insertAttachmentChunk, sumAttachmentChunkBytes } from './attachment.repository.js';
import type { AttachmentStorage } from './attachment.storage.js';

/** Bytes per chunk row: large enough for few rows per file, small enough to hold a few at a time. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per query of a download (1 MiB). */
const CHUNKS_PER_READ = 4;

const KEY_PREFIX = 'database:';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}(${ULID_PATTERN.slice(1, -1)})$`);

export function isDatabaseKey(key: string): boolean {
  return key.startsWith(KEY_PREFIX);
}

function attachmentIdOf(key: string): string {
  const id = KEY_PATTERN.exec(key)?.[1];
  if (id === undefined) {
    throw new Error(`Invalid attachment storage key: ${key}`);
  }
  return id;
}

/**
 * Files in the database, in `attachment_chunks`, so every process on the same PostgreSQL serves
 * the same files. An upload writes each chunk as it arrives and the attachment row last, in one
 * transaction: an upload that fails or breaks off leaves nothing. A download reads a few chunks
 * per query as the client takes them; neither ever holds a whole file.
 */
export function createDatabaseStorage(): AttachmentStorage {
  return {
    keyFor: (_organizationId, attachmentId) => `${KEY_PREFIX}${attachmentId}`,

    async write(db, key, source, record) {
      const attachmentId = attachmentIdOf(key);
      return db.transaction().execute(async (trx) => {
        const hash = createHash('sha256');
        let size = 0;
        let seq = 0;
        for await (const data of inChunks(source, CHUNK_BYTES)) {
          hash.update(data);
          size += data.length;
          await insertAttachmentChunk(trx, { attachment_id: attachmentId, seq, data });
          seq += 1;
        }
        return record({ size, sha256: hash.digest('hex') }, trx);
      });
    },

    async writeWithin(trx, key, data) {
      const attachmentId = attachmentIdOf(key);
      for (let seq = 0; seq * CHUNK_BYTES < data.length; seq += 1) {
        await insertAttachmentChunk(trx, {
          attachment_id: attachmentId,
          seq,
          data: data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES),
        });
      }
      return { size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    },

    // The chunks were written in the caller's transaction: they went with its rollback.
    discard: async () => undefined,

    async open(db, key) {
      const attachmentId = attachmentIdOf(key);
      const size = await sumAttachmentChunkBytes(db, attachmentId);
      // Not object mode: the reply's backpressure pulls the next chunk only once this one is sent.
      return { stream: Readable.from(readChunks(db, attachmentId), { objectMode: false }), size };
    },
  };
}

/** `source` cut into pieces of exactly `size` bytes, the last one shorter. */
async function* inChunks(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes < size) {
      continue;
    }
    const joined = Buffer.concat(pending, pendingBytes);
    let offset = 0;
    for (; joined.length - offset >= size; offset += size) {
      yield joined.subarray(offset, offset + size);
    }
    pending = offset < joined.length ? [joined.subarray(offset)] : [];
    pendingBytes = joined.length - offset;
  }
  if (pendingBytes > 0) {
    yield Buffer.concat(pending, pendingBytes);
  }
}

/** The attachment's chunks in order, `CHUNKS_PER_READ` per query, each query only when the last batch is sent. */
async function* readChunks(db: Kysely<DB>, attachmentId: string): AsyncGenerator<Buffer> {
  let fromSeq = 0;
  for (;;) {
    const rows = await findAttachmentChunks(db, attachmentId, fromSeq, CHUNKS_PER_READ);
    for (const row of rows) {
      yield row.data;
    }
    const last = rows[rows.length - 1];
    if (rows.length < CHUNKS_PER_READ || last === undefined) {
      return;
    }
    fromSeq = last.seq + 1;
  }
}
