import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { insertUnderFreeValue } from '../../lib/free-value.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { findAttachmentFile, readAttachmentFile } from '../../platform/attachments/attachment.service.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { normalizeCustomDomain } from './help-center.domain.js';
import { nonBlank } from './help-center.input.js';
import { readMeta, writeMeta } from './help-center.meta.js';
import { toHelpCenter } from './help-center.presenter.js';
import {
  findHelpCenterById,
  findHelpCenterRowByDomain,
  findHelpCenterRowBySlug,
  type HelpCenterCounterScope,
  type HelpCenterRow,
  insertHelpCenterUnlessSlugTaken,
  listCustomDomainRows,
  listHelpCenterSlugs,
  listHelpCenters,
  listSiteAddressRows,
  lockHelpCenter,
  nextHelpCenterNumber,
  updateHelpCenter,
} from './help-center.repository.js';
import type { CreateHelpCenterSchema, ListHelpCentersQuerySchema, UpdateHelpCenterSchema } from './help-center.schemas.js';
import { firstFreeSlug, slugify } from './help-center.slug.js';
import type { HelpCenterTable } from './help-center.table.js';
import { LOGO_CONTENT_TYPES, MAX_LOGO_BYTES, readTheme, writeTheme } from './help-center.theme.js';
import { writeWidget } from './help-center.widget.js';
import { requireWidgetReferences } from './help-center-widget.service.js';
export interface HelpCenterDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const HELP_CENTER_NOT_FOUND = 'Help center not found';
const SLUG_TAKEN = 'Help center with this slug already exists';
const DOMAIN_TAKEN = 'Custom domain is already used by another help center';
const ATTACHMENT_NOT_FOUND = 'Attachment not found';

/** The organization's help center, or a 404 (also for another organization's). */
export async function requireHelpCenter(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  id: string,
): Promise<HelpCenterRow> {
  const row = await findHelpCenterById(db, organizationId, id);
  if (!row) {
    throw AppError.notFound(HELP_CENTER_NOT_FOUND);
  }
  return row;
}

/**
 * The next number of the organization's articles or collections (their `uid`), taken in the
 * caller's transaction so that a rolled-back create leaves no gap.
 */
export async function allocateHelpCenterNumber(
  trx: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  scope: HelpCenterCounterScope,
): Promise<number> {
  return nextHelpCenterNumber(trx, organizationId, scope);
}

/**
 * Holds the help center's row until the transaction ends, so that changes to its collection tree
 * take turns; answers the help center, or undefined when the organization has none by that id.
 */
export async function lockHelpCenterForUpdate(
  trx: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  id: string,
): Promise<HelpCenterRow | undefined> {
  return lockHelpCenter(trx, organizationId, id);
}

/** Whether the organization's help center `id` exists and is open to anyone (not behind a sign-in). */
export async function isPublicHelpCenter(db: Kysely<DB>, organizationId: string, id: string): Promise<boolean> {
  const helpCenter = await findHelpCenterById(db, organizationId, id);
  return helpCenter !== undefined && !readBoolean(helpCenter.is_protected);
}

/**
 * A help center is a public site (its address, whether it needs a sign-in): admins set it up. Its
 * slug is the first free one of the whole instance, since `/hc/{slug}/` names one help center on
 * the shared host; a concurrent create that takes it first makes this one try the next.
 */
export async function createHelpCenter(deps: HelpCenterDeps, principal: Principal, input: Static<typeof CreateHelpCenterSchema>) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const name = nonBlank(input.name, 'name');
  const at = deps.clock.now().toISOString();
  const id = deps.ids.objectId();
  const base = slugify(name, 'help-center');
  await insertUnderFreeValue(
    async () => firstFreeSlug(base, await listHelpCenterSlugs(deps.db, base)),
    (slug) =>
      insertHelpCenterUnlessSlugTaken(deps.db, {
        id,
        organization_id: organizationId,
        name,
        slug,
        is_protected: input.isProtected ?? false,
        meta: writeMeta(input.meta),
        created_by: principal.userId,
        created_at: at,
        updated_at: at,
      }),
  );
  return toHelpCenter(await requireHelpCenter(deps.db, organizationId, id));
}

/** Oldest first: a keyset page on `(created_at, id)`. */
export async function listOrganizationHelpCenters(
  db: Kysely<DB>,
  principal: Principal,
  query: Static<typeof ListHelpCentersQuerySchema>,
) {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readTypedCursor(query.cursor, ['instant', 'text']);
  const rows = await listHelpCenters(db, principal.organizationId, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: page.items.map(toHelpCenter), nextCursor: page.nextCursor };
}

export async function getHelpCenter(db: Kysely<DB>, principal: Principal, id: string) {
  return toHelpCenter(await requireHelpCenter(db, principal.organizationId, id));
}

/**
 * Renaming keeps the slug (links stay valid); `slug` and `customDomain` change the site's
 * addresses, a 409 when any help center of the instance has them (the unique indexes decide, so a
 * concurrent update that takes one first gets the same 409). `meta`, `theme` and `widget` keys merge into
 * what is stored, read under the row lock so that concurrent updates of different keys both stay.
 */
export async function updateHelpCenterDetails(
  deps: HelpCenterDeps,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateHelpCenterSchema>,
) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  await requireHelpCenter(deps.db, organizationId, id);
  const changes: Updateable<HelpCenterTable> = { updated_at: deps.clock.now().toISOString() };
  if (input.name !== undefined) {
    changes.name = nonBlank(input.name, 'name');
  }
  if (input.isProtected !== undefined) {
    changes.is_protected = input.isProtected;
  }
  const customDomain = typeof input.customDomain === 'string' ? normalizeCustomDomain(input.customDomain) : input.customDomain;
  await requireLogoAttachment(deps.db, organizationId, input.theme?.logoAttachmentId);
  await requireWidgetReferences(deps.db, organizationId, input.widget);
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockHelpCenter(trx, organizationId, id);
    if (!current) {
      throw AppError.notFound(HELP_CENTER_NOT_FOUND);
    }
    if (input.meta !== undefined) {
      changes.meta = writeMeta(input.meta, readMeta(current.meta));
    }
    if (input.theme !== undefined) {
      changes.theme = writeTheme(input.theme, current.theme);
    }
    if (input.widget !== undefined) {
      changes.widget = writeWidget(input.widget, current.widget);
    }
    if (input.slug !== undefined && input.slug !== current.slug) {
      await updateHelpCenter(trx, organizationId, id, { slug: input.slug }).catch(conflictAs(SLUG_TAKEN));
    }
    if (customDomain !== undefined && customDomain !== current.custom_domain) {
      await updateHelpCenter(trx, organizationId, id, { custom_domain: customDomain }).catch(conflictAs(DOMAIN_TAKEN));
    }
    await updateHelpCenter(trx, organizationId, id, changes);
    const updated = toHelpCenter(await requireHelpCenter(trx, organizationId, id));
    await recordEvent(trx, deps, organizationId, {
      type: 'help_center.updated',
      actor: { type: 'user', id: principal.userId },
      data: updated,
    });
    return updated;
  });
}

/** A logo must be an image file of the organization that browsers show without running anything. */
async function requireLogoAttachment(db: Kysely<DB>, organizationId: string, attachmentId: string | null | undefined) {
  if (!attachmentId) {
    return;
  }
  const file = await findAttachmentFile(db, organizationId, attachmentId);
  if (!file) {
    throw AppError.notFound(ATTACHMENT_NOT_FOUND);
  }
  const issue = { location: 'body' as const, path: ['theme', 'logoAttachmentId'] };
  if (file.isLink || !LOGO_CONTENT_TYPES.includes(file.contentType)) {
    throw AppError.invalid('theme.logoAttachmentId must be a PNG, JPEG, GIF or WebP image', { ...issue, rule: 'contentType' });
  }
  if (file.size > MAX_LOGO_BYTES) {
    throw AppError.invalid(`theme.logoAttachmentId must be an image of at most ${MAX_LOGO_BYTES} bytes`, {
      ...issue,
      rule: 'maxSize',
    });
  }
}

/** The help center whose public address is `/hc/{slug}/`, of any organization; the public site reads it. */
export async function findHelpCenterBySlug(db: Kysely<DB>, slug: string): Promise<HelpCenterRow | undefined> {
  return findHelpCenterRowBySlug(db, slug);
}

/**
 * The help center of any organization whose custom domain a request's `Host` names: compared in
 * lower case, without a port or the trailing dot of a fully qualified name.
 */
export async function findHelpCenterByDomain(db: Kysely<DB>, host: string): Promise<HelpCenterRow | undefined> {
  const domain = host
    .trim()
    .toLowerCase()
    .replace(/:[0-9]*$/, '')
    .replace(/\.$/, '');
  return domain === '' ? undefined : findHelpCenterRowByDomain(db, domain);
}

/** Every custom domain of the instance and the help center it serves, by domain. */
export async function listCustomDomains(
  db: Kysely<DB>,
): Promise<Array<{ domain: string; helpCenterId: string; organizationId: string; slug: string }>> {
  const rows = await listCustomDomainRows(db);
  return rows.flatMap((row) =>
    row.custom_domain === null
      ? []
      : [{ domain: row.custom_domain, helpCenterId: row.id, organizationId: row.organization_id, slug: row.slug }],
  );
}

/**
 * The help center's logo for its public site: the image's type, bytes and an ETag (its SHA-256);
 * null when it has none, or when the attachment is gone or no longer an image a logo may be.
 */
export async function readHelpCenterLogo(
  deps: { db: Kysely<DB>; storage: AttachmentStorage },
  helpCenter: Pick<HelpCenterRow, 'organization_id' | 'theme'>,
): Promise<{ contentType: string; body: Buffer; etag: string } | null> {
  const { logoAttachmentId } = readTheme(helpCenter.theme);
  if (logoAttachmentId === null) {
    return null;
  }
  const file = await readAttachmentFile(deps, helpCenter.organization_id, logoAttachmentId);
  if (!file || !LOGO_CONTENT_TYPES.includes(file.contentType)) {
    return null;
  }
  return { contentType: file.contentType, body: file.body, etag: `"${file.sha256}"` };
}

/** The address of every help center that anyone may read (not protected), of every organization: robots.txt lists their sitemaps. */
export async function listPublicHelpCenterAddresses(
  db: Kysely<DB>,
): Promise<Array<{ slug: string; customDomain: string | null }>> {
  const rows = await listSiteAddressRows(db);
  return rows.flatMap((row) => (readBoolean(row.is_protected) ? [] : [{ slug: row.slug, customDomain: row.custom_domain }]));
}
