import type { ColumnType } from 'kysely';

export interface AttachmentTable {
  id: string;
  organization_id: string;
  uploaded_by_id: string;
  /** The client's file name, cleaned of paths and control characters; shown, never used on disk. */
  file_name: string;
  content_type: string;
  /** Bytes of the file. */
  size: number;
  /**
   * Where the bytes are: `<organization id>/<attachment id>`, a path relative to the attachments
   * folder, or `database:<attachment id>` for chunks in `attachment_chunks`.
   */
  storage_key: string;
  /** Hex SHA-256 of the bytes, computed while they were written. */
  sha256: string;
  created_at: string;
  deleted_at: string | null;
  /**
   * Set for a link attachment (an account note's `attachmentUrls`): the http(s) URL, never fetched;
   * downloads redirect to it. Such rows have no file: size 0, empty `storage_key` and `sha256`.
   */
  external_url: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The bytes of an attachment kept in the database, a bounded piece per row, in `seq` order from 0. */
export interface AttachmentChunkTable {
  attachment_id: string;
  seq: number;
  data: Buffer;
}
