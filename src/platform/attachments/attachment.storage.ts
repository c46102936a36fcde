import type { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
import { attachmentStorageOf, type Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { createDatabaseStorage, isDatabaseKey } from './attachment-database.storage.js';
import { attachmentsRoot, createDiskStorage } from './attachment-disk.storage.js';

export interface StoredFile {
  size: number;
  sha256: string;
}

/**
 * Records the attachment once its bytes are stored, on `db`: the store's transaction when it has
 * one. Throwing undoes the store.
 */
export type RecordStoredFile<T> = (file: StoredFile, db: Kysely<DB> | Transaction<DB>) => Promise<T>;

/** Where attachments' bytes are kept; the service uses this and never asks which store it has. */
export interface AttachmentStorage {
  /** The `storage_key` of a new attachment's bytes in this store. */
  keyFor(organizationId: string, attachmentId: string): string;
  /**
   * Streams `source` under `key`, counting and hashing on the way, then calls `record`. The bytes
   * are kept only if `record` succeeds; on any error nothing is left behind and the error is
   * passed on. Answers what `record` answered.
   */
  write<T>(db: Kysely<DB>, key: string, source: Readable, record: RecordStoredFile<T>): Promise<T>;
  /** The bytes as a stream, read as the client takes them, with their size; null when they are missing. */
  open(db: Kysely<DB>, key: string): Promise<{ stream: Readable; size: number } | null>;
  /**
   * Stores bytes already in memory for a writer that records them in its own transaction (a
   * received email and all it brings): in the database the chunks go into `trx` and share its
   * fate; on disk the file is written at once, and the writer calls `discard` if `trx` does not
   * commit (a crash in between leaves a file no row names, which nothing can reach).
   */
  writeWithin(trx: Transaction<DB>, key: string, data: Buffer): Promise<StoredFile>;
  /** Removes what `writeWithin` wrote outside the transaction; nothing to do for the database's chunks. */
  discard(key: string): Promise<void>;
}

type StorageConfig = Pick<Config, 'ATTACHMENT_STORAGE' | 'DATABASE_URL' | 'ATTACHMENTS_DIR' | 'DATA_DIR'>;

/**
 * New uploads go to the store `ATTACHMENT_STORAGE` names; downloads read from whichever store
 * the key belongs to, so files kept on disk before a switch to the database stay readable.
 */
export function createAttachmentStorage(config: StorageConfig): AttachmentStorage {
  const disk = createDiskStorage(attachmentsRoot(config));
  const database = createDatabaseStorage();
  const writer = attachmentStorageOf(config) === 'database' ? database : disk;
  return {
    keyFor: writer.keyFor,
    write: writer.write,
    open: (db, key) => (isDatabaseKey(key) ? database : disk).open(db, key),
    writeWithin: writer.writeWithin,
    discard: (key) => (isDatabaseKey(key) ? database : disk).discard(key),
  };
}
