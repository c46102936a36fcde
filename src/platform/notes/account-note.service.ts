import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireIdParam, unique } from '../accounts/account.input.js';
import { requireAccount } from '../accounts/account.lookup.js';
import { loadAttributeValues, resolveAttributeValue } from '../accounts/account-attribute.service.js';
import { recordLinkAttachments, requireWebUrl } from '../attachments/attachment.service.js';
import { ACCESS_DENIED, isOrgAdmin } from '../authorization.js';
import { recordEvent } from '../events/event.recorder.js';
import { toNote } from './account-note.presenter.js';
import {
  deleteNoteAttachment,
  deleteNoteAttachments,
  findNoteById,
  insertNote,
  insertNoteAttachments,
  listNoteAttachmentIds,
  listNoteLinkAttachments,
  listNotesOfAccount,
  type NoteRow,
  updateNote as updateNoteRow,
} from './account-note.repository.js';
import type { CreateNote, ListNotesQuery, UpdateNote } from './account-note.schemas.js';
import type { AccountNoteTable } from './account-note.table.js';

type Db = Kysely<DB> | Transaction<DB>;
interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const NOTE_NOT_FOUND = 'Account note not found';
const NOTE_ID_REQUIRED = 'Note ID is required!';

export type Note = ReturnType<typeof toNote>;

async function withAttachments(db: Db, rows: NoteRow[]): Promise<Note[]> {
  const links = await listNoteAttachmentIds(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toNote(
      row,
      links.filter((link) => link.note_id === row.id).map((link) => link.attachment_id),
    ),
  );
}

async function readNote(db: Db, row: NoteRow): Promise<Note> {
  const [note] = await withAttachments(db, [row]);
  if (!note) {
    throw AppError.notFound(NOTE_NOT_FOUND);
  }
  return note;
}

const canSee = (principal: Principal, note: NoteRow) =>
  note.visibility === 'public' || note.author_id === principal.userId || isOrgAdmin(principal);

/**
 * The note as the caller may see it: a blank id is the contract's 400; a note that is deleted, of a
 * deleted account, of another organization, or private to someone else is its 404.
 */
async function requireVisibleNote(db: Db, principal: Principal, id: string | undefined): Promise<NoteRow> {
  const note = await findNoteById(db, principal.organizationId, requireIdParam(id, NOTE_ID_REQUIRED));
  if (!note || !canSee(principal, note)) {
    throw AppError.notFound(NOTE_NOT_FOUND);
  }
  return note;
}

/** Only a note's author and organization admins change it. */
async function requireEditableNote(db: Db, principal: Principal, id: string | undefined): Promise<NoteRow> {
  const note = await requireVisibleNote(db, principal, id);
  if (note.author_id !== principal.userId && !isOrgAdmin(principal)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  return note;
}

function requireContent(content: string | undefined): void {
  if (content !== undefined && content.trim() === '') {
    throw AppError.invalid('content must not be blank', { location: 'body', path: ['content'], rule: 'minLength' });
  }
}

async function linkAttachments(trx: Db, note: { id: string; organization_id: string }, ids: readonly string[], at: string) {
  await insertNoteAttachments(
    trx,
    ids.map((attachmentId) => ({
      note_id: note.id,
      attachment_id: attachmentId,
      organization_id: note.organization_id,
      created_at: at,
    })),
  );
}

/** `attachmentUrls` as stored (normalised by the URL parser), each once, in the order sent. */
function distinctLinks(urls: readonly string[] = []): string[] {
  return unique(urls.map((text, index) => requireWebUrl(text, ['attachmentUrls', index]).href));
}

/**
 * What a PUT's `attachmentUrls` means: afterwards the note's link attachments are exactly `urls`,
 * in that order. The links already in place as a leading run keep their attachment ids, so sending
 * the same list again changes nothing; the others are unlinked (their stored attachments stay, as
 * with endpoint 10) and the rest of `urls` is recorded anew. Uploaded files are not links: they are
 * added and removed through their own routes only.
 */
async function replaceLinkAttachments(
  trx: Db,
  deps: Deps,
  principal: Principal,
  note: { id: string; organization_id: string },
  urls: readonly string[],
  at: string,
): Promise<void> {
  const current = await listNoteLinkAttachments(trx, note.id);
  let kept = 0;
  while (kept < current.length && kept < urls.length && current[kept]?.external_url === urls[kept]) {
    kept++;
  }
  await deleteNoteAttachments(
    trx,
    note.id,
    current.slice(kept).map((link) => link.attachment_id),
  );
  await linkAttachments(trx, note, await recordLinkAttachments(trx, deps, principal, urls.slice(kept)), at);
}

export async function createNote(deps: Deps, principal: Principal, input: CreateNote): Promise<Note> {
  requireContent(input.content);
  const id = deps.ids.ulid();
  return deps.db.transaction().execute(async (trx) => {
    const account = await requireAccount(trx, principal.organizationId, input.accountId);
    const values = await loadAttributeValues(trx, deps, principal.organizationId);
    const type = resolveAttributeValue(values, 'note_type', input.type, 'type');
    const attachmentIds = await recordLinkAttachments(trx, deps, principal, distinctLinks(input.attachmentUrls));
    const at = deps.clock.now().toISOString();
    await insertNote(trx, {
      id,
      organization_id: principal.organizationId,
      account_id: account.id,
      content: input.content,
      type_id: type?.id ?? null,
      visibility: input.visibility ?? 'public',
      author_id: principal.userId,
      metadata: writeJson(input.metadata),
      created_at: at,
      updated_at: at,
      deleted_at: null,
    });
    await linkAttachments(trx, { id, organization_id: principal.organizationId }, attachmentIds, at);
    const note = await readNote(trx, await requireVisibleNote(trx, principal, id));
    await recordEvent(trx, deps, principal.organizationId, {
      type: 'note.created',
      actor: { type: 'user', id: principal.userId },
      data: note,
      // A private note is its author's (and admins'), in the log as everywhere else.
      privateToUserId: input.visibility === 'private' ? principal.userId : null,
    });
    return note;
  });
}

/** A page of an account's notes, newest first (then by id, descending), by `page` or by `cursor`. */
export async function listNotes(
  db: Kysely<DB>,
  principal: Principal,
  query: ListNotesQuery,
): Promise<{ items: Note[]; nextCursor: string | null }> {
  const account = await requireAccount(db, principal.organizationId, query.accountId);
  const page = readListPage(query, query.limit ?? 10, 2);
  const rows = await listNotesOfAccount(db, principal.organizationId, {
    accountId: account.id,
    viewerId: principal.userId,
    seeAll: isOrgAdmin(principal),
    page,
  });
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: await withAttachments(db, items), nextCursor };
}

export async function getNote(db: Kysely<DB>, principal: Principal, id: string | undefined): Promise<Note> {
  return readNote(db, await requireVisibleNote(db, principal, id));
}

/**
 * Endpoint 9, idempotent: the fields sent replace the stored ones, fields left out stay, and
 * `attachmentUrls` replaces the note's link attachments (never fetched); see `replaceLinkAttachments`.
 */
export async function updateNote(deps: Deps, principal: Principal, id: string | undefined, input: UpdateNote): Promise<Note> {
  return deps.db.transaction().execute(async (trx) => {
    const note = await requireEditableNote(trx, principal, id);
    requireContent(input.content);
    const at = deps.clock.now().toISOString();
    const changes: Updateable<AccountNoteTable> = { updated_at: at };
    if (input.content !== undefined) {
      changes.content = input.content;
    }
    if (input.type !== undefined) {
      const values = await loadAttributeValues(trx, deps, principal.organizationId);
      changes.type_id = resolveAttributeValue(values, 'note_type', input.type, 'type')?.id ?? null;
    }
    if (input.visibility !== undefined) {
      changes.visibility = input.visibility;
    }
    if (input.metadata !== undefined) {
      changes.metadata = writeJson(input.metadata);
    }
    if (input.attachmentUrls !== undefined) {
      await replaceLinkAttachments(trx, deps, principal, note, distinctLinks(input.attachmentUrls), at);
    }
    await updateNoteRow(trx, principal.organizationId, note.id, changes);
    return readNote(trx, await requireVisibleNote(trx, principal, note.id));
  });
}

/** Soft delete (author or admin); its attachments stay stored. */
export async function deleteNote(deps: Deps, principal: Principal, id: string | undefined): Promise<void> {
  const note = await requireEditableNote(deps.db, principal, id);
  const at = deps.clock.now().toISOString();
  await updateNoteRow(deps.db, principal.organizationId, note.id, { deleted_at: at, updated_at: at });
}

/**
 * Adds an uploaded file to a note: the note is checked first, so nothing is stored for a note the
 * caller cannot change; `store` reads and stores the upload and answers the attachment's id.
 */
export async function addUploadedAttachment(
  deps: Deps,
  principal: Principal,
  id: string | undefined,
  store: () => Promise<{ id: string }>,
): Promise<Note> {
  const note = await requireEditableNote(deps.db, principal, id);
  const attachment = await store();
  return deps.db.transaction().execute(async (trx) => {
    const current = await requireEditableNote(trx, principal, note.id);
    const at = deps.clock.now().toISOString();
    await linkAttachments(trx, current, [attachment.id], at);
    await updateNoteRow(trx, principal.organizationId, current.id, { updated_at: at });
    return readNote(trx, await requireVisibleNote(trx, principal, current.id));
  });
}

/** Endpoint 10: unlinks an attachment from the note (the stored attachment stays) and answers the note. */
export async function removeNoteAttachment(
  deps: Deps,
  principal: Principal,
  id: string | undefined,
  attachmentId: string | undefined,
): Promise<Note> {
  return deps.db.transaction().execute(async (trx) => {
    const note = await requireEditableNote(trx, principal, id);
    const attachment = requireIdParam(attachmentId, 'Attachment ID is required!');
    if ((await deleteNoteAttachment(trx, note.id, attachment)) === 0) {
      throw AppError.notFound('Attachment not found');
    }
    await updateNoteRow(trx, principal.organizationId, note.id, { updated_at: deps.clock.now().toISOString() });
    return readNote(trx, await requireVisibleNote(trx, principal, note.id));
  });
}
