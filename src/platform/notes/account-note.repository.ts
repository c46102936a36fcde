import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { inKeysetOrder } from '../../db/keyset.js';
import type { ListPage } from '../../lib/cursors.js';
import type { AccountNoteAttachmentTable, AccountNoteTable } from './account-note.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** A live note of a live account, with its account's name, its author and its type. */
function selectNotes(db: Db, organizationId: string) {
  return db
    .selectFrom('account_notes')
    .innerJoin('accounts', 'accounts.id', 'account_notes.account_id')
    .innerJoin('users as author', 'author.id', 'account_notes.author_id')
    .leftJoin('account_attribute_values as note_type', 'note_type.id', 'account_notes.type_id')
    .select([
      'account_notes.id',
      'account_notes.organization_id',
      'account_notes.account_id',
      'account_notes.content',
      'account_notes.type_id',
      'account_notes.visibility',
      'account_notes.author_id',
      'account_notes.metadata',
      'account_notes.created_at',
      'account_notes.updated_at',
      'accounts.name as account_name',
      'author.name as author_name',
      'author.email as author_email',
      'note_type.value as type_value',
      'note_type.icon as type_icon',
      'note_type.color as type_color',
    ])
    .where('account_notes.organization_id', '=', organizationId)
    .where('account_notes.deleted_at', 'is', null)
    .where('accounts.deleted_at', 'is', null);
}

export type NoteRow = Awaited<ReturnType<ReturnType<typeof selectNotes>['executeTakeFirstOrThrow']>>;

export async function insertNote(db: Db, row: Insertable<AccountNoteTable>): Promise<void> {
  await db.insertInto('account_notes').values(row).execute();
}

export async function findNoteById(db: Db, organizationId: string, id: string): Promise<NoteRow | undefined> {
  return selectNotes(db, organizationId).where('account_notes.id', '=', id).executeTakeFirst();
}

/**
 * One page of an account's live notes, newest first (then by id, descending), and the first of
 * the next page if any (`limit + 1` rows); private ones only for their author unless `seeAll`.
 * The page's ids come from the index alone (account_notes_live_account_created, which holds the
 * visibility and the author too), however deep the page; only their rows are read.
 */
export async function listNotesOfAccount(
  db: Db,
  organizationId: string,
  filter: { accountId: string; viewerId: string; seeAll: boolean; page: ListPage },
): Promise<NoteRow[]> {
  const { page } = filter;
  let ids = db
    .selectFrom('account_notes')
    .select(['id', 'created_at'])
    .where('account_id', '=', filter.accountId)
    .where('deleted_at', 'is', null);
  if (!filter.seeAll) {
    ids = ids.where((eb) => eb.or([eb('visibility', '=', 'public'), eb('author_id', '=', filter.viewerId)]));
  }
  return selectNotes(db, organizationId)
    .innerJoin(
      inKeysetOrder(ids, ['created_at', 'id'], page.after, 'desc')

        .limit(page.limit + 1)
        .offset(page.offset)
        .as('page'),
      'page.id',
      'account_notes.id',
    )
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute();
}

export async function updateNote(
  db: Db,
  organizationId: string,
  id: string,
  changes: Updateable<AccountNoteTable>,
): Promise<void> {
  await db.updateTable('account_notes').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Links attachments to a note; one already linked stays as it is. */
export async function insertNoteAttachments(db: Db, rows: Insertable<AccountNoteAttachmentTable>[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db
    .insertInto('account_note_attachments')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The live attachments of each note, in the order they were attached. */
export async function listNoteAttachmentIds(db: Db, noteIds: readonly string[]) {
  if (noteIds.length === 0) {
    return [];
  }
  return db
    .selectFrom('account_note_attachments')
    .innerJoin('attachments', 'attachments.id', 'account_note_attachments.attachment_id')
    .select(['account_note_attachments.note_id', 'account_note_attachments.attachment_id'])
    .where('account_note_attachments.note_id', 'in', [...noteIds])
    .where('attachments.deleted_at', 'is', null)
    .orderBy('account_note_attachments.created_at')
    .orderBy('account_note_attachments.attachment_id')
    .execute();
}

/** The note's live link attachments (recorded `attachmentUrls`), in the order they were attached. */
export async function listNoteLinkAttachments(
  db: Db,
  noteId: string,
): Promise<{ attachment_id: string; external_url: string }[]> {
  const rows = await db
    .selectFrom('account_note_attachments')
    .innerJoin('attachments', 'attachments.id', 'account_note_attachments.attachment_id')
    .select(['account_note_attachments.attachment_id', 'attachments.external_url'])
    .where('account_note_attachments.note_id', '=', noteId)
    .where('attachments.deleted_at', 'is', null)
    .where('attachments.external_url', 'is not', null)
    .orderBy('account_note_attachments.created_at')
    .orderBy('account_note_attachments.attachment_id')
    .execute();
  return rows.map((row) => ({ attachment_id: row.attachment_id, external_url: row.external_url ?? '' }));
}

/** Unlinks attachments from a note; the stored attachments stay. */
export async function deleteNoteAttachments(db: Db, noteId: string, attachmentIds: readonly string[]): Promise<void> {
  if (attachmentIds.length === 0) {
    return;
  }
  await db
    .deleteFrom('account_note_attachments')
    .where('note_id', '=', noteId)
    .where('attachment_id', 'in', [...attachmentIds])
    .execute();
}

/** Unlinks one attachment from a note; answers how many links went (0 or 1). */
export async function deleteNoteAttachment(db: Db, noteId: string, attachmentId: string): Promise<number> {
  const result = await db
    .deleteFrom('account_note_attachments')
    .where('note_id', '=', noteId)
    .where('attachment_id', '=', attachmentId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
