import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { DEFAULT_LIST_LIMIT } from '../help-center.pagination.js';
import { nonBlank } from './help-center.input.js';
import { readMeta, writeMeta } from './help-center.meta.js';
import { toHelpCenter } from './help-center.presenter.js';
import {
  findHelpCenterById,
  findHelpCenterRowBySlug,
  type HelpCenterCounterScope,
  type HelpCenterRow,
  insertHelpCenter,
  listHelpCenterSlugs,
  listHelpCenters,
  lockHelpCenter,
  nextHelpCenterNumber,
  updateHelpCenter,
} from './help-center.repository.js';
import type { CreateHelpCenterSchema, ListHelpCentersQuerySchema, UpdateHelpCenterSchema } from './help-center.schemas.js';
import { firstFreeSlug, slugify } from './help-center.slug.js';
import type { HelpCenterTable } from './help-center.table.js';
export interface HelpCenterDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const HELP_CENTER_NOT_FOUND = 'Help center not found';
const SLUG_TAKEN = 'Help center with this slug already exists';

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

/** A help center is the organization's public site (its address, whether it needs a sign-in): admins set it up. */
export async function createHelpCenter(deps: HelpCenterDeps, principal: Principal, input: Static<typeof CreateHelpCenterSchema>) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const name = nonBlank(input.name, 'name');
  const at = deps.clock.now().toISOString();
  const id = deps.ids.objectId();
  await deps.db.transaction().execute(async (trx) => {
    await nextHelpCenterNumber(trx, organizationId, 'help_center');
    const base = slugify(name, 'help-center');
    await insertHelpCenter(trx, {
      id,
      organization_id: organizationId,
      name,
      slug: firstFreeSlug(base, await listHelpCenterSlugs(trx, organizationId, base)),
      is_protected: input.isProtected ?? false,
      meta: writeMeta(input.meta),
      created_by: principal.userId,
      created_at: at,
      updated_at: at,
    });
  });
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

/** Renaming keeps the slug (links stay valid); `slug` changes it, 409 when another has it. */
export async function updateHelpCenterDetails(
  deps: HelpCenterDeps,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateHelpCenterSchema>,
) {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const current = await requireHelpCenter(deps.db, organizationId, id);
  const changes: Updateable<HelpCenterTable> = { updated_at: deps.clock.now().toISOString() };
  if (input.name !== undefined) {
    changes.name = nonBlank(input.name, 'name');
  }
  if (input.slug !== undefined && input.slug !== current.slug) {
    if ((await listHelpCenterSlugs(deps.db, organizationId, input.slug)).includes(input.slug)) {
      throw AppError.conflict(SLUG_TAKEN);
    }
    changes.slug = input.slug;
  }
  if (input.isProtected !== undefined) {
    changes.is_protected = input.isProtected;
  }
  if (input.meta !== undefined) {
    changes.meta = writeMeta(input.meta, readMeta(current.meta));
  }
  // A concurrent update may take the slug between the check and the write: the same 409.
  return deps.db
    .transaction()
    .execute(async (trx) => {
      await updateHelpCenter(trx, organizationId, id, changes);
      const updated = toHelpCenter(await requireHelpCenter(trx, organizationId, id));
      await recordEvent(trx, deps, organizationId, {
        type: 'help_center.updated',
        actor: { type: 'user', id: principal.userId },
        data: updated,
      });
      return updated;
    })
    .catch(conflictAs(SLUG_TAKEN));
}

/** The help center whose public address is `/hc/{slug}/`, of any organization; the public site reads it. */
export async function findHelpCenterBySlug(db: Kysely<DB>, slug: string): Promise<HelpCenterRow | undefined> {
  return findHelpCenterRowBySlug(db, slug);
}
