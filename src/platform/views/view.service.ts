import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { DEFAULT_TICKET_SORT } from '../../shared/ticket-sorts.js';
import { isOrgAdmin, requireOrgAdmin } from '../authorization.js';
import { canSeeShareable, requireManageableScope } from '../sharing.js';
import { checkViewFilters, countViewTickets, pageViewTickets, type ViewFilters, type ViewSort } from './view.filters.js';
import {
  deleteView,
  findMemberTeamIds,
  findViewById,
  insertView,
  listSharedViewRows,
  listViews,
  lockViewById,
  updateView,
  VIEW_LIST_ORDER,
  type ViewRow,
} from './view.repository.js';
import type { CreateView, UpdateView } from './view.schemas.js';
import type { SavedViewTable } from './view.table.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

/** Counts stop here: a view's count costs at most this many index entries, however many tickets match. */
export const VIEW_COUNT_CAP = 10_000;

/** A view as the service runs it: saved, or built in (no owner, no times). */
interface ViewDefinition {
  id: string;
  name: string;
  filters: ViewFilters;
  sort: ViewSort;
  teamId: string | null;
  ownerId: string | null;
  isBuiltIn: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  /** Selects nothing without asking the database (the caller's teams, when they have none). */
  empty?: boolean;
}

/**
 * The built-in views, the same for everyone and read-only, with stable ids. "Unassigned in my
 * teams" names the caller's teams, so it is made per caller.
 */
async function builtInViews(db: Db, principal: Principal): Promise<ViewDefinition[]> {
  const teamIds = await findMemberTeamIds(db, principal.organizationId, principal.userId);
  const builtIn = (id: string, name: string, filters: ViewFilters, sort: ViewSort): ViewDefinition => ({
    id: `builtin:${id}`,
    name,
    filters,
    sort,
    teamId: null,
    ownerId: null,
    isBuiltIn: true,
    createdAt: null,
    updatedAt: null,
  });
  return [
    builtIn('my-open', 'My open tickets', { assignedAgentId: 'me', isClosed: false }, '-updatedAt'),
    {
      // Oldest first: the queue of what waits longest for someone to take it.
      ...builtIn(
        'unassigned',
        'Unassigned in my teams',
        { assignedAgentId: 'none', isClosed: false, teamId: teamIds },
        'createdAt',
      ),
      empty: teamIds.length === 0,
    },
    builtIn('all-open', 'All open', { isClosed: false }, '-createdAt'),
    builtIn('recently-updated', 'Recently updated', {}, '-updatedAt'),
    // Open tickets whose SLA clock is due within the hour or already breached (a breached
    // target keeps its past due time while its clock runs), the most urgent first.
    builtIn('breaching-soon', 'Breaching soon', { isClosed: false, slaDueWithin: 60 }, 'slaDueAt'),
  ];
}

function fromRow(row: ViewRow): ViewDefinition {
  return {
    id: row.id,
    name: row.name,
    filters: readJson<ViewFilters>(row.filters) ?? {},
    sort: row.sort as ViewSort,
    teamId: row.team_id,
    ownerId: row.owner_id,
    isBuiltIn: false,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The view in the API shape, with how many tickets it selects for the caller. */
async function withCount(db: Db, principal: Principal, view: ViewDefinition, now: Date) {
  const { empty: _empty, ...shown } = view;
  let count: number | null = 0;
  if (!view.empty) {
    try {
      count = await countViewTickets(db, principal, view.filters, view.sort, VIEW_COUNT_CAP, now);
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'NOT_FOUND' && error.code !== 'VALIDATION')) {
        throw error;
      }
      // The filters name something gone since (an archived team, a deleted status): no count, and
      // the view's tickets say why.
      count = null;
    }
  }
  return {
    ...shown,
    ticketCount: count === null ? null : Math.min(count, VIEW_COUNT_CAP),
    ticketCountIsCapped: count !== null && count > VIEW_COUNT_CAP,
  };
}

/** A view the caller may see: built in, their own, or shared with a team of theirs; else a 404. */
async function requireVisibleView(db: Db, principal: Principal, viewId: string): Promise<ViewDefinition> {
  if (viewId.startsWith('builtin:')) {
    const view = (await builtInViews(db, principal)).find((candidate) => candidate.id === viewId);
    if (!view) {
      throw AppError.notFound('View not found!');
    }
    return view;
  }
  const row = await findViewById(db, principal.organizationId, viewId);
  if (!row || !(await canSeeShareable(db, principal, row))) {
    throw AppError.notFound('View not found!');
  }
  return fromRow(row);
}

/**
 * A saved view the caller may change, locked for the rest of the transaction so that concurrent
 * changes apply one after the other: its owner for a personal one, an admin for a shared one.
 * Built-in views are read-only.
 */
async function requireManageableView(trx: Transaction<DB>, principal: Principal, viewId: string): Promise<ViewDefinition> {
  if (viewId.startsWith('builtin:')) {
    await requireVisibleView(trx, principal, viewId);
    throw AppError.forbidden('Built-in views are read-only');
  }
  const row = await lockViewById(trx, principal.organizationId, viewId);
  if (!row || !(await canSeeShareable(trx, principal, row))) {
    throw AppError.notFound('View not found!');
  }
  await requireManageableScope(trx, principal, row.team_id);
  return fromRow(row);
}

/** `now`: the time a view's SLA filters are read at. */
export async function getView(db: Kysely<DB>, principal: Principal, viewId: string, now: Date) {
  return withCount(db, principal, await requireVisibleView(db, principal, viewId), now);
}

/**
 * The built-in views (on the first page), then the caller's own and those shared with their teams
 * (every shared one for admins), by name, each with its count.
 */
export async function listVisibleViews(
  db: Kysely<DB>,
  principal: Principal,
  query: { cursor?: string; limit?: number },
  now: Date,
) {
  const after = readCursor(query.cursor, VIEW_LIST_ORDER.length);
  const limit = query.limit ?? 20;
  const rows = await listViews(db, principal.organizationId, {
    viewerId: principal.userId,
    seeAllShared: isOrgAdmin(principal),
    after,
    limit: limit + 1,
  });
  const page = keysetPage(rows, limit, (row) => [row.name, row.id]);
  const views = [...(after ? [] : await builtInViews(db, principal)), ...page.items.map(fromRow)];
  const items = [];
  for (const view of views) {
    items.push(await withCount(db, principal, view, now));
  }
  return { items, nextCursor: page.nextCursor };
}

/**
 * Every view shared with a team, without counts: the organization's set-up, as the configuration
 * export reads it (personal views stay their owners'). Admins only.
 */
export async function listSharedViews(db: Db, principal: Principal) {
  requireOrgAdmin(principal);
  return (await listSharedViewRows(db, principal.organizationId)).map(fromRow);
}

/** A page of the tickets a view selects for the caller: `GET /v1/tickets` with its filters and sort. */
export async function listViewTickets(
  db: Kysely<DB>,
  principal: Principal,
  viewId: string,
  page: { cursor?: string; limit?: number },
  now: Date,
) {
  const view = await requireVisibleView(db, principal, viewId);
  if (view.empty) {
    return { items: [], nextCursor: null };
  }
  try {
    return await pageViewTickets(db, principal, view.filters, view.sort, page, now);
  } catch (error) {
    const stale =
      error instanceof AppError &&
      (error.code === 'NOT_FOUND' || (error.code === 'VALIDATION' && error.issues?.[0]?.path[0] !== 'cursor'));
    if (stale) {
      throw AppError.conflict(`The view's filters no longer apply: ${error.message} Change or delete the view.`);
    }
    throw error;
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') {
    throw AppError.invalid('name must not be blank', { location: 'body', path: ['name'], rule: 'blank' });
  }
  return trimmed;
}

async function checkFilters(db: Db, principal: Principal, filters: ViewFilters, sort: ViewSort): Promise<void> {
  if (filters.teamId !== undefined && filters.teamId.length === 0) {
    throw AppError.invalid('filters.teamId must name at least one team (leave it out for every team)', {
      location: 'body',
      path: ['filters', 'teamId'],
      rule: 'minItems',
    });
  }
  await checkViewFilters(db, principal, filters, sort);
}

export async function createView(deps: Deps, principal: Principal, input: CreateView) {
  const teamId = input.teamId ?? null;
  const id = deps.ids.ulid();
  await inTransaction(deps.db, async (trx) => {
    await requireManageableScope(trx, principal, teamId);
    const name = checkName(input.name);
    const filters = input.filters ?? {};
    const sort = input.sort ?? DEFAULT_TICKET_SORT;
    await checkFilters(trx, principal, filters, sort);
    const at = deps.clock.now().toISOString();
    await insertView(trx, {
      id,
      organization_id: principal.organizationId,
      owner_id: principal.userId,
      team_id: teamId,
      name,
      filters: JSON.stringify(filters),
      sort,
      created_at: at,
      updated_at: at,
    });
  });
  return getView(deps.db, principal, id, deps.clock.now());
}

/** Changes the fields sent (`filters` as a whole); moving a view to another scope needs the right to manage both. */
export async function changeView(deps: Deps, principal: Principal, viewId: string, input: UpdateView) {
  await inTransaction(deps.db, async (trx) => {
    const view = await requireManageableView(trx, principal, viewId);
    const teamId = input.teamId === undefined ? view.teamId : input.teamId;
    if (teamId !== view.teamId) {
      await requireManageableScope(trx, principal, teamId);
    }
    const changes: Updateable<SavedViewTable> = { updated_at: deps.clock.now().toISOString(), team_id: teamId };
    if (input.name !== undefined) {
      changes.name = checkName(input.name);
    }
    if (input.filters !== undefined || input.sort !== undefined) {
      const filters = input.filters ?? view.filters;
      const sort = input.sort ?? view.sort;
      await checkFilters(trx, principal, filters, sort);
      changes.filters = JSON.stringify(filters);
      changes.sort = sort;
    }
    await updateView(trx, view.id, changes);
  });
  return getView(deps.db, principal, viewId, deps.clock.now());
}

export async function removeView(deps: Deps, principal: Principal, viewId: string) {
  return inTransaction(deps.db, async (trx) => {
    const view = await requireManageableView(trx, principal, viewId);
    const shown = await withCount(trx, principal, view, deps.clock.now());
    await deleteView(trx, view.id);
    return shown;
  });
}
