import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import { loadOnce } from '../../lib/load-once.js';
import type { Principal } from '../../lib/principal.js';
import { type MacroPlaceholderValues, macroPlaceholderValues } from '../../shared/macro-placeholders.js';
import { isOrgAdmin } from '../authorization.js';
import { flushDeferredEvents } from '../events/event.recorder.js';
import { writePendingReports } from '../reports/report-aggregates.service.js';
import { assignWaitingTicketsServedBy } from '../routing/routing.pipeline.js';
import { canSeeShareable, requireManageableScope } from '../sharing.js';
import { beginTicketChange, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { addTicketTags, resolveTicketTags } from '../ticket-tags/ticket-tag.lookup.js';
import { toCommentOf } from '../tickets/comment.presenter.js';
import { addCommentInTransaction, prepareComment } from '../tickets/comment.service.js';
import { loadHtmlConverters } from '../tickets/comment-content.js';
import { presentTicket } from '../tickets/ticket.presenter.js';
import type { TicketRow } from '../tickets/ticket.repository.js';
import { applyTicketFieldChanges, requireTicket, requireTicketAccess } from '../tickets/ticket.service.js';
import { ensureTeamTicketOptions } from '../tickets/ticket-option.service.js';
import { findCommentOfDedupeKey } from '../tickets/ticket-rows.service.js';
import { findLiveUser } from '../users/user.lookup.js';
import { checkPlaceholders, renderPlaceholders } from './macro.placeholders.js';
import { toMacro } from './macro.presenter.js';
import {
  deleteMacro,
  findMacroById,
  findTeamTagsByIds,
  findTicketOptionKind,
  findTicketOptionsByName,
  insertMacro,
  listMacros,
  lockMacroById,
  MACRO_LIST_ORDER,
  type MacroRow,
  updateMacro,
} from './macro.repository.js';
import type { ApplyMacro, CreateMacro, MacroActions, UpdateMacro } from './macro.schemas.js';
import type { MacroTable } from './macro.table.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  secretKey: Buffer;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

type Db = Kysely<DB> | Transaction<DB>;

/** marked, imported for the first macro a process applies rather than at every start. */
const loadMarked = loadOnce(async () => (await import('marked')).marked);

/** A macro the caller may use; anything else (another organization's, someone's personal one) is a 404. */
async function requireVisibleMacro(db: Db, principal: Principal, macroId: string): Promise<MacroRow> {
  const macro = await findMacroById(db, principal.organizationId, macroId);
  if (!macro || !(await canSeeShareable(db, principal, macro))) {
    throw AppError.notFound('Macro not found!');
  }
  return macro;
}

/**
 * A macro the caller may change, locked for the rest of the transaction so that concurrent changes
 * apply one after the other: its owner for a personal one, an admin of the team or organization
 * for a shared one.
 */
async function requireManageableMacro(trx: Transaction<DB>, principal: Principal, macroId: string): Promise<MacroRow> {
  const macro = await lockMacroById(trx, principal.organizationId, macroId);
  if (!macro || !(await canSeeShareable(trx, principal, macro))) {
    throw AppError.notFound('Macro not found!');
  }
  await requireManageableScope(trx, principal, macro.team_id);
  return macro;
}

export async function getMacro(db: Kysely<DB>, principal: Principal, macroId: string) {
  return toMacro(await requireVisibleMacro(db, principal, macroId));
}

/** The macros the caller may use, by name: their own and those of their teams (every shared one for admins). */
export async function listUsableMacros(
  db: Kysely<DB>,
  principal: Principal,
  query: { teamId?: string; nameContains?: string; cursor?: string; limit?: number },
) {
  const after = readCursor(query.cursor, MACRO_LIST_ORDER.length);
  const limit = query.limit ?? 50;
  const rows = await listMacros(db, principal.organizationId, {
    viewerId: principal.userId,
    seeAllShared: isOrgAdmin(principal),
    teamId: query.teamId,
    nameContains: query.nameContains,
    after,
    limit: limit + 1,
  });
  const page = keysetPage(rows, limit, (row) => [row.name, row.id]);
  return { items: page.items.map(toMacro), nextCursor: page.nextCursor };
}

export async function createMacro(deps: Deps, principal: Principal, input: CreateMacro) {
  const teamId = input.teamId ?? null;
  const id = deps.ids.ulid();
  await inTransaction(deps.db, async (trx) => {
    await requireManageableScope(trx, principal, teamId);
    const actions = input.actions ?? {};
    await seedTeamOptions(trx, deps, principal, teamId);
    await checkMacro(trx, principal, { name: input.name, content: input.content, teamId, actions });
    const at = deps.clock.now().toISOString();
    await insertMacro(trx, {
      id,
      organization_id: principal.organizationId,
      owner_id: principal.userId,
      team_id: teamId,
      name: input.name.trim(),
      description: storedDescription(input.description),
      content: input.content,
      comment_visibility: input.commentVisibility ?? 'public',
      send_email: input.shouldSendEmail ?? false,
      actions: JSON.stringify(actions),
      created_at: at,
      updated_at: at,
    });
  });
  return getMacro(deps.db, principal, id);
}

/** Changes the fields sent; moving a macro to another scope needs the right to manage both. */
export async function changeMacro(deps: Deps, principal: Principal, macroId: string, input: UpdateMacro) {
  await inTransaction(deps.db, async (trx) => {
    const macro = await requireManageableMacro(trx, principal, macroId);
    const teamId = input.teamId === undefined ? macro.team_id : input.teamId;
    if (teamId !== macro.team_id) {
      await requireManageableScope(trx, principal, teamId);
    }
    const actions = input.actions ?? readJson<MacroActions>(macro.actions) ?? {};
    await seedTeamOptions(trx, deps, principal, teamId);
    await checkMacro(trx, principal, {
      name: input.name ?? macro.name,
      content: input.content ?? macro.content,
      teamId,
      actions,
    });
    const changes: Updateable<MacroTable> = { updated_at: deps.clock.now().toISOString(), team_id: teamId };
    if (input.name !== undefined) {
      changes.name = input.name.trim();
    }
    if (input.description !== undefined) {
      changes.description = storedDescription(input.description);
    }
    if (input.content !== undefined) {
      changes.content = input.content;
    }
    if (input.commentVisibility !== undefined) {
      changes.comment_visibility = input.commentVisibility;
    }
    if (input.shouldSendEmail !== undefined) {
      changes.send_email = input.shouldSendEmail;
    }
    if (input.actions !== undefined) {
      changes.actions = JSON.stringify(input.actions);
    }
    await updateMacro(trx, macro.id, changes);
  });
  return getMacro(deps.db, principal, macroId);
}

export async function removeMacro(deps: Deps, principal: Principal, macroId: string) {
  return inTransaction(deps.db, async (trx) => {
    const macro = await requireManageableMacro(trx, principal, macroId);
    await deleteMacro(trx, macro.id);
    return toMacro(macro);
  });
}

/** A description as stored: trimmed, and none rather than a blank one. */
function storedDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * A team's statuses and priorities are seeded the first time something needs them: a macro shared
 * with a team that has had no ticket yet names them too (`statusName`), as one made by an import does.
 */
async function seedTeamOptions(trx: Transaction<DB>, deps: Deps, principal: Principal, teamId: string | null): Promise<void> {
  if (teamId !== null) {
    await ensureTeamTicketOptions(trx, deps, { id: teamId, organization_id: principal.organizationId });
  }
}

function invalid(field: (string | number)[], message: string, rule = 'reference'): AppError {
  return AppError.invalid(message, { location: 'body', path: field, rule });
}

/**
 * What a macro must be to be saved: a name and reply that are not blank, known placeholders only,
 * and actions naming what exists: an agent of the organization, ticket tags, and statuses and
 * priorities of the team it is shared with (of any team for a personal macro, whose status by
 * name is matched in the ticket's team when applied).
 */
async function checkMacro(
  db: Db,
  principal: Principal,
  macro: { name: string; content: string; teamId: string | null; actions: MacroActions },
): Promise<void> {
  if (macro.name.trim() === '') {
    throw invalid(['name'], 'name must not be blank', 'blank');
  }
  if (macro.content.trim() === '') {
    throw invalid(['content'], 'content must not be blank', 'blank');
  }
  checkPlaceholders(macro.content, 'content');
  const { actions, teamId } = macro;
  for (const [field, kind] of [
    ['statusId', 'status'],
    ['priorityId', 'priority'],
  ] as const) {
    const optionId = actions[field];
    if (optionId) {
      const option = await findTicketOptionKind(db, principal.organizationId, optionId);
      if (!option || option.kind !== kind || (teamId !== null && option.team_id !== teamId)) {
        throw invalid(
          ['actions', field],
          `actions.${field} is not a ${kind} of ${teamId ? 'the team' : 'a team of the organization'}`,
        );
      }
    }
  }
  for (const [field, kind] of [
    ['statusName', 'status'],
    ['priorityName', 'priority'],
  ] as const) {
    const name = actions[field];
    if (name !== undefined && (await findTicketOptionsByName(db, principal.organizationId, kind, name, teamId)).length === 0) {
      throw invalid(
        ['actions', field],
        `actions.${field} is not a ${kind} of ${teamId ? 'the team' : 'any team of the organization'}: ${name}`,
      );
    }
  }
  if (typeof actions.assignedAgentId === 'string' && actions.assignedAgentId !== 'me') {
    if (!(await findLiveUser(db, principal.organizationId, actions.assignedAgentId))) {
      throw invalid(['actions', 'assignedAgentId'], 'actions.assignedAgentId must be a user of the organization');
    }
  }
  const tagIds = actions.addTagIds ?? [];
  const tags = new Map((await findTeamTagsByIds(db, principal.organizationId, tagIds)).map((tag) => [tag.id, tag]));
  for (const [index, tagId] of tagIds.entries()) {
    const tag = tags.get(tagId);
    if (tag?.tag_type !== 'ticket' || (teamId !== null && tag.team_id !== teamId)) {
      throw invalid(
        ['actions', 'addTagIds', index],
        `actions.addTagIds[${index}] is not a ticket tag of ${teamId ? 'the team' : 'a team of the organization'}`,
      );
    }
  }
}

/**
 * Applies a macro to a ticket in one transaction: its reply goes through the comment endpoint's
 * path (dedupe, email to the requestor), then its actions through `PATCH /v1/tickets/{id}`'s rules.
 * If an action cannot be applied (a status of another team, an agent since deleted), nothing is
 * written, the reply included. The ticket row is locked first, so concurrent applications queue.
 * With a `deDuplicationKey` already used by this macro on this ticket, nothing changes and the
 * first reply is answered (`created: false`); used by another comment, it is a 409.
 */
export async function applyMacro(deps: Deps, principal: Principal, ticketIdParam: string, macroId: string, input: ApplyMacro) {
  const macro = await requireVisibleMacro(deps.db, principal, macroId);
  const ticketId = (await requireTicketAccess(deps.db, principal, ticketIdParam)).id;
  // The converters the reply needs, loaded before the transaction rather than while it holds the ticket.
  const [marked] = await Promise.all([loadMarked(), loadHtmlConverters()]);
  const result = await deps.db.transaction().execute(async (trx) => {
    // The ticket's row lock first: concurrent applications (and changes by hand) take turns, a
    // replayed deDuplicationKey sees the first application's reply, and the timeline's old values are current.
    const timeline = await beginTicketChange(trx, deps, principal.organizationId, ticketId);
    const access = await requireTicketAccess(trx, principal, ticketId);
    const key = input.deDuplicationKey;
    const replayed = key ? await findCommentOfDedupeKey(trx, ticketId, key) : undefined;
    if (replayed) {
      if (readJson<{ macroId?: unknown }>(replayed.metadata)?.macroId !== macro.id) {
        throw AppError.conflict(`deDuplicationKey "${key}" was already used for a different comment on this ticket`);
      }
      return { comment: await toCommentOf(trx, principal, replayed), created: false, freedAgentId: null };
    }
    const ticket = await requireTicket(trx, principal, ticketId);
    const markdown = renderPlaceholders(macro.content, await placeholderValues(trx, principal, ticket));
    const visibility = macro.comment_visibility;
    const commentInput = {
      contentHtml: marked.parse(markdown, { async: false, gfm: true }),
      commentVisibility: visibility,
      commentType: visibility === 'private' ? ('note' as const) : ('comment' as const),
      shouldSendEmail: input.shouldSendEmail ?? readBoolean(macro.send_email),
      deDuplicationKey: key,
      metadata: { macroId: macro.id, macroName: macro.name },
    };
    const { comment } = await addCommentInTransaction(
      trx,
      deps,
      principal,
      access,
      commentInput,
      await prepareComment(commentInput),
      // The actions may lock more rows (a team's ticket counter): the event log's lock comes after them.
      { eventLater: true },
    );
    const freedAgentId = await applyActions(trx, deps, principal, ticket, readJson<MacroActions>(macro.actions) ?? {});
    await timeline.finish(userActor(principal));
    await flushDeferredEvents(trx, deps, principal.organizationId);
    // The reply's report rows, now that the event log's lock is held (when the actions changed nothing).
    await writePendingReports(trx);
    return { comment, created: true, freedAgentId };
  });
  if (result.freedAgentId) {
    // As PATCH does: closing the ticket freed its agent's capacity for waiting tickets.
    await assignWaitingTicketsServedBy(deps, principal.organizationId, result.freedAgentId, 'ticket_closed');
  }
  const ticket = await presentTicket(deps.db, await requireTicket(deps.db, principal, ticketId));
  return { applied: { comment: result.comment, ticket }, created: result.created };
}

async function placeholderValues(db: Db, principal: Principal, ticket: TicketRow): Promise<MacroPlaceholderValues> {
  const agent = await findLiveUser(db, principal.organizationId, principal.userId);
  return macroPlaceholderValues({
    ticket: {
      id: ticket.id,
      identifier: ticket.ticket_identifier,
      title: ticket.title,
      status: ticket.status_name,
      priority: ticket.priority_name,
      team: ticket.team_name,
      assignee: ticket.agent_name,
    },
    requestor: { firstName: ticket.contact_first_name, lastName: ticket.contact_last_name, email: ticket.requestor_email },
    agent: { name: agent?.name ?? null, email: agent?.email ?? null },
  });
}

/**
 * The macro's actions on the ticket, in the caller's transaction under the ticket's row lock: tags
 * are added as `POST /v1/tickets/{id}/tags` adds them, and status, priority and assignee go through
 * `applyTicketFieldChanges`; their errors are reported as the macro's (`actions.statusId` …).
 * Answers the agent whose capacity closing the ticket freed.
 */
async function applyActions(
  trx: Transaction<DB>,
  deps: Deps,
  principal: Principal,
  ticket: TicketRow,
  actions: MacroActions,
): Promise<string | null> {
  const changes = {
    ...(actions.statusId !== undefined && { statusId: actions.statusId }),
    ...(actions.statusName !== undefined && { statusName: actions.statusName }),
    ...(actions.priorityId !== undefined && { priorityId: actions.priorityId }),
    ...(actions.priorityName !== undefined && { priorityName: actions.priorityName }),
    ...(actions.assignedAgentId !== undefined && {
      assignedAgentId: actions.assignedAgentId === 'me' ? principal.userId : actions.assignedAgentId,
    }),
  };
  try {
    await addTags(trx, deps, principal, ticket, actions.addTagIds ?? []);
    return Object.keys(changes).length === 0 ? null : await applyTicketFieldChanges(trx, deps, principal, ticket, changes);
  } catch (error) {
    const issue = error instanceof AppError && error.code === 'VALIDATION' ? error.issues?.[0] : undefined;
    if (!issue) {
      throw error;
    }
    throw invalid(['actions', ...issue.path], `The macro cannot be applied to this ticket: ${issue.message}`, issue.rule);
  }
}

/**
 * Adds the macro's tags, which must be ticket tags of the ticket's team (else a 400). Tags deleted
 * since the macro was saved are passed over: their deletion took them off every ticket too.
 */
async function addTags(trx: Transaction<DB>, deps: Deps, principal: Principal, ticket: TicketRow, tagIds: readonly string[]) {
  const existing = new Set((await findTeamTagsByIds(trx, principal.organizationId, tagIds)).map((tag) => tag.id));
  const tags = await resolveTicketTags(
    trx,
    principal.organizationId,
    ticket.team_id,
    tagIds.filter((id) => existing.has(id)),
    { location: 'body', field: 'addTagIds' },
  );
  if (tags.length > 0) {
    await addTicketTags(trx, { id: ticket.id, organizationId: principal.organizationId }, tags, deps.clock.now().toISOString());
  }
}
