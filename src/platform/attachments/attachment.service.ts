import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { isHttpUrl } from '../../lib/http-url.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import type { UploadInput } from '../../lib/upload-input.js';
import { isOrgAdmin } from '../authorization.js';
import { toAttachmentMetadata, toAttachmentSummary } from './attachment.presenter.js';
import {
  type AttachmentRow,
  findAttachmentById,
  findAttachmentsByIds,
  insertAttachment,
  isHiddenByPrivateNotes,
} from './attachment.repository.js';
import type { AttachmentStorage } from './attachment.storage.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  storage: AttachmentStorage;
}

export type { UploadInput };

const NOT_FOUND = 'Attachment not found!';
const FALLBACK_TYPE = 'application/octet-stream';
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
// Control characters and the bidirectional overrides that can disguise an extension (`exe.txt`).
const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export type AttachmentSummary = ReturnType<typeof toAttachmentSummary>;

/** The base name the client gave, without paths, control characters or direction overrides; at most 255 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = [...base.normalize('NFC').replace(UNSAFE_NAME_CHARACTERS, '').trim()].slice(0, 255).join('');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** `type/subtype` in lower case; anything else is stored as `application/octet-stream`. */
export function cleanContentType(contentType: string): string {
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return MIME_TYPE.test(essence) ? essence : FALLBACK_TYPE;
}

/**
 * Streams the upload into storage and records it; a file over the limit, a body that breaks off
 * or a failed insert leaves nothing behind.
 */
export async function uploadAttachment(deps: Deps, principal: Principal, upload: UploadInput): Promise<AttachmentSummary> {
  return storeUpload(deps, { organizationId: principal.organizationId, uploadedById: principal.userId }, upload);
}

/**
 * `uploadAttachment` for an upload no user makes (a messenger visitor's file): recorded as
 * uploaded by `uploadedById`, as an email's files are by its mailbox's maker.
 */
export async function storeUpload(
  deps: Deps,
  owner: { organizationId: string; uploadedById: string },
  upload: UploadInput,
): Promise<AttachmentSummary> {
  const id = deps.ids.ulid();
  const key = deps.storage.keyFor(owner.organizationId, id);
  const row = await deps.storage.write(deps.db, key, upload.stream, async (stored, db) => {
    if (upload.truncated()) {
      throw new AppError({
        code: 'PAYLOAD_TOO_LARGE',
        message: `File is larger than the limit of ${deps.config.ATTACHMENT_MAX_BYTES} bytes`,
      });
    }
    const row = {
      id,
      organization_id: owner.organizationId,
      uploaded_by_id: owner.uploadedById,
      file_name: cleanFileName(upload.fileName),
      content_type: cleanContentType(upload.contentType),
      size: stored.size,
      storage_key: key,
      sha256: stored.sha256,
      created_at: deps.clock.now().toISOString(),
      deleted_at: null,
    };
    await insertAttachment(db, row);
    return row;
  });
  return toAttachmentSummary(row, deps.config);
}

/** The attachment as the caller may see it: another organization's, or one only on others' private notes, is not found. */
async function requireAttachment(db: Kysely<DB>, principal: Principal, id: string): Promise<AttachmentRow> {
  const row = await findAttachmentById(db, principal.organizationId, id);
  if (!row || (!isOrgAdmin(principal) && (await isHiddenByPrivateNotes(db, principal.organizationId, id, principal.userId)))) {
    throw AppError.notFound(NOT_FOUND);
  }
  return row;
}

export async function getAttachmentMetadata(deps: Pick<Deps, 'db' | 'config'>, principal: Principal, id: string) {
  return toAttachmentMetadata(await requireAttachment(deps.db, principal, id), deps.config);
}

/**
 * The attachment and its bytes as a stream, or for a link attachment its URL (never fetched);
 * another organization's id is not found.
 */
export async function openAttachment(
  deps: Pick<Deps, 'db' | 'storage'>,
  principal: Principal,
  id: string,
): Promise<
  { kind: 'file'; fileName: string; contentType: string; size: number; stream: Readable } | { kind: 'link'; url: string }
> {
  return openRow(deps, await requireAttachment(deps.db, principal, id));
}

/**
 * The organization's attachment `id` and its bytes, for a feature that decided itself who may read
 * it (a messenger visitor reading the files of their own conversation); not found when unknown.
 */
export async function openOrganizationAttachment(deps: Pick<Deps, 'db' | 'storage'>, organizationId: string, id: string) {
  const row = await findAttachmentById(deps.db, organizationId, id);
  if (!row) {
    throw AppError.notFound(NOT_FOUND);
  }
  return openRow(deps, row);
}

async function openRow(
  deps: Pick<Deps, 'db' | 'storage'>,
  row: AttachmentRow,
): Promise<
  { kind: 'file'; fileName: string; contentType: string; size: number; stream: Readable } | { kind: 'link'; url: string }
> {
  if (row.external_url !== null) {
    return { kind: 'link', url: row.external_url };
  }
  const file = await deps.storage.open(deps.db, row.storage_key);
  if (!file) {
    throw new AppError({
      code: 'NOT_FOUND',
      message: NOT_FOUND,
      cause: new Error(`The bytes of ${row.storage_key} are missing`),
    });
  }
  return { kind: 'file', fileName: row.file_name, contentType: row.content_type, size: file.size, stream: file.stream };
}

/**
 * The organization's live attachment `id` as another feature that points at an uploaded file sees
 * it (a help center's logo): its content type and size, and whether it is a link rather than a
 * file; undefined when unknown, deleted or another organization's.
 */
export async function findAttachmentFile(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  id: string,
): Promise<{ id: string; contentType: string; size: number; isLink: boolean } | undefined> {
  const row = await findAttachmentById(db, organizationId, id);
  return row && { id: row.id, contentType: row.content_type, size: row.size, isLink: row.external_url !== null };
}

/**
 * The whole of the organization's file attachment `id`, read into memory, with its content type and
 * SHA-256: for small files another feature serves by itself (a help center's logo on its public
 * site). Null when unknown, deleted, another organization's, a link, or its bytes are missing.
 */
export async function readAttachmentFile(
  deps: Pick<Deps, 'db' | 'storage'>,
  organizationId: string,
  id: string,
): Promise<{ contentType: string; sha256: string; body: Buffer } | null> {
  const row = await findAttachmentById(deps.db, organizationId, id);
  if (!row || row.external_url !== null) {
    return null;
  }
  const file = await deps.storage.open(deps.db, row.storage_key);
  if (!file) {
    return null;
  }
  return { contentType: row.content_type, sha256: row.sha256, body: await buffer(file.stream) };
}

/** Content type recorded for link attachments: the bytes behind the URL are never looked at. */
export const LINK_CONTENT_TYPE = 'text/uri-list';

/** The normalised http(s) URL, or a 400 at `path` (`attachmentUrls.0 must be an http or https URL`). */
export function requireWebUrl(text: string, path: (string | number)[]): URL {
  if (!isHttpUrl(text)) {
    throw AppError.invalid(`${path.join('.')} must be an http or https URL`, { location: 'body', path, rule: 'format' });
  }
  return new URL(text);
}

/** The file name a link shows: its last path segment, else its host name. */
export function fileNameFromUrl(url: URL): string {
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  return cleanFileName(decoded === '' ? url.hostname : decoded);
}

/**
 * Records each URL as a link attachment of the organization (its file name taken from the URL; the
 * URL is not fetched) and answers the new ids in order. URLs must be http(s): a 400 names the first
 * one that is not. For features that attach links, inside their transaction.
 */
export async function recordLinkAttachments(
  db: Kysely<DB> | Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  principal: Principal,
  urls: readonly string[],
  path: (string | number)[] = ['attachmentUrls'],
): Promise<string[]> {
  const parsed = urls.map((text, index) => requireWebUrl(text, [...path, index]));
  const at = deps.clock.now().toISOString();
  const ids: string[] = [];
  for (const url of parsed) {
    const id = deps.ids.ulid();
    await insertAttachment(db, {
      id,
      organization_id: principal.organizationId,
      uploaded_by_id: principal.userId,
      file_name: fileNameFromUrl(url),
      content_type: LINK_CONTENT_TYPE,
      size: 0,
      storage_key: '',
      sha256: '',
      created_at: at,
      deleted_at: null,
      external_url: url.href,
    });
    ids.push(id);
  }
  return ids;
}

/**
 * The organization's attachments named by `ids`, in that order without repeats; throws a 400
 * naming every unknown id (`attachmentIds contains unknown attachment ids: X, Y`). For features
 * that link attachments, inside their transaction if they have one.
 */
export async function requireAttachments(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  ids: readonly string[],
  path: string | (string | number)[] = 'attachmentIds',
): Promise<AttachmentRow[]> {
  const wanted = [...new Set(ids)];
  const byId = new Map((await findAttachmentsByIds(db, organizationId, wanted)).map((row) => [row.id, row]));
  const unknown = wanted.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    const segments = typeof path === 'string' ? path.split('.') : path;
    throw AppError.invalid(`${segments.join('.')} contains unknown attachment ids: ${unknown.join(', ')}`, {
      location: 'body',
      path: segments,
      rule: 'reference',
      params: { unknownIds: unknown },
    });
  }
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/** A file that came with an email: the name and type its sender gave, and its bytes. */
export interface ReceivedFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/**
 * Stores files that arrived with an email and records them as attachments of the organization,
 * uploaded by `uploadedById`, in the caller's transaction; answers their ids in order. Every
 * storage key written goes into `written` first, for the caller to `discard` if the transaction
 * fails (the disk store writes outside it).
 */
export async function storeReceivedFiles(
  trx: Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory; storage: AttachmentStorage },
  owner: { organizationId: string; uploadedById: string },
  files: readonly ReceivedFile[],
  written: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const file of files) {
    const id = deps.ids.ulid();
    const key = deps.storage.keyFor(owner.organizationId, id);
    written.push(key);
    const stored = await deps.storage.writeWithin(trx, key, file.data);
    await insertAttachment(trx, {
      id,
      organization_id: owner.organizationId,
      uploaded_by_id: owner.uploadedById,
      file_name: cleanFileName(file.fileName),
      content_type: cleanContentType(file.contentType),
      size: stored.size,
      storage_key: key,
      sha256: stored.sha256,
      created_at: deps.clock.now().toISOString(),
      deleted_at: null,
    });
    ids.push(id);
  }
  return ids;
}

/** The name, type and size of the organization's live attachments among `ids`, by id. */
export async function describeAttachments(db: Kysely<DB> | Transaction<DB>, organizationId: string, ids: readonly string[]) {
  const rows = ids.length === 0 ? [] : await findAttachmentsByIds(db, organizationId, ids);
  return new Map(
    rows.map((row) => [row.id, { id: row.id, name: row.file_name, contentType: row.content_type, size: Number(row.size) }]),
  );
}
