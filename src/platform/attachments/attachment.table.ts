import type { ColumnType } from 'kysely';

export interface AttachmentTable {
  id: string;
  organization_id: string;
  uploaded_by_id: string;
  /** The client's file name, cleaned of paths and control characters; shown, never used on disk. */
  file_name: string;
  content_type: string;
  /** Bytes on disk. */
  size: number;
  /** Path of the file relative to the attachments folder: `<organization id>/<attachment id>`. */
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
