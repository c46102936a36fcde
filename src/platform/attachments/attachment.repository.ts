import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AttachmentChunkTable, AttachmentTable } from './attachment.table.js';

type Db = Kysely<DB> | Transaction<DB>;

const ATTACHMENT_COLUMNS = [
  'id',
  'organization_id',
  'uploaded_by_id',
  'file_name',
  'content_type',
  'size',
  'storage_key',
  'sha256',
  'created_at',
  'external_url',
] as const;

export async function insertAttachment(db: Db, row: Insertable<AttachmentTable>): Promise<void> {
  await db.insertInto('attachments').values(row).execute();
}

/** An attachment of the organization that has not been deleted. */
export async function findAttachmentById(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('attachments')
    .select(ATTACHMENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachmentById>>>;

/** The organization's live attachments among `ids`, in no particular order; unknown ids are left out. */
export async function findAttachmentsByIds(db: Db, organizationId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .selectFrom('attachments')
    .select(ATTACHMENT_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Whether the attachment belongs only to private account notes the viewer may not see (another
 * author's), in which case it must stay as hidden as the notes themselves.
 */
export async function isHiddenByPrivateNotes(
  db: Db,
  organizationId: string,
  attachmentId: string,
  viewerId: string,
): Promise<boolean> {
  const links = await db
    .selectFrom('account_note_attachments')
    .innerJoin('account_notes', 'account_notes.id', 'account_note_attachments.note_id')
    .select(['account_notes.visibility', 'account_notes.author_id'])
    .where('account_note_attachments.organization_id', '=', organizationId)
    .where('account_note_attachments.attachment_id', '=', attachmentId)
    .where('account_notes.deleted_at', 'is', null)
    .execute();
  return links.length > 0 && links.every((link) => link.visibility === 'private' && link.author_id !== viewerId);
}

export async function insertAttachmentChunk(db: Db, row: Insertable<AttachmentChunkTable>): Promise<void> {
  await db.insertInto('attachment_chunks').values(row).execute();
}

/** Up to `limit` chunks of the attachment, in order from `fromSeq`: one bounded read of a download. */
export async function findAttachmentChunks(db: Db, attachmentId: string, fromSeq: number, limit: number) {
  return db
    .selectFrom('attachment_chunks')
    .select(['seq', 'data'])
    .where('attachment_id', '=', attachmentId)
    .where('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Bytes stored for the attachment across its chunks (0 when it has none), without reading them. */
export async function sumAttachmentChunkBytes(db: Db, attachmentId: string): Promise<number> {
  const row = await db
    .selectFrom('attachment_chunks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb.fn<number>('length', ['data'])), eb.lit(0)).as('bytes'))
    .where('attachment_id', '=', attachmentId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}
