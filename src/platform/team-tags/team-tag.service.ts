import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { conflictAs } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { recordTicketsTagLeftEvents } from '../events/ticket-events.js';
import { requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam } from '../teams/team.service.js';
import { recordTagLeavingTickets, userActor } from '../ticket-activities/ticket-activity.recorder.js';
import { takeTagOffAllTickets } from '../ticket-tags/ticket-tag.cleanup.js';
import { toTeamTag } from './team-tag.presenter.js';
import {
  deleteTeamTag,
  findTeamTagById,
  insertTeamTag,
  listTeamTags,
  type TeamTagRow,
  updateTeamTag,
} from './team-tag.repository.js';
import type { CreateTeamTag, UpdateTeamTag } from './team-tag.schemas.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

type Db = Kysely<DB> | Transaction<DB>;

const NAME_TAKEN = 'Tag with this name already exists in the team!';

/** Every tag of the team, as `{count, items}`: what each tag operation answers with. */
async function tagList(db: Db, organizationId: string, teamId: string) {
  const items = (await listTeamTags(db, organizationId, teamId)).map(toTeamTag);
  return { count: items.length, items };
}

export async function listTags(db: Kysely<DB>, principal: Principal, teamId: string) {
  await requireTeam(db, principal.organizationId, teamId);
  return tagList(db, principal.organizationId, teamId);
}

/** A team's tags are changed by an admin or a manager of the team, as the team itself is. */
export async function createTag(deps: Deps, principal: Principal, teamId: string, input: CreateTeamTag) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    const name = checkedName(input.name);
    await ensureNameFree(trx, organizationId, teamId, name);
    const at = deps.clock.now().toISOString();
    await insertTeamTag(trx, {
      id: deps.ids.ulid(),
      organization_id: organizationId,
      team_id: teamId,
      name,
      color: input.color ?? null,
      tag_type: input.type ?? 'ticket',
      description: input.description ?? null,
      created_at: at,
      updated_at: at,
    }).catch(conflictAs(NAME_TAKEN));
    return tagList(trx, organizationId, teamId);
  });
}

export async function updateTag(deps: Deps, principal: Principal, teamId: string, tagId: string, input: UpdateTeamTag) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    await requireTag(trx, organizationId, teamId, tagId);
    const name = input.name === undefined ? undefined : checkedName(input.name);
    if (name !== undefined) {
      await ensureNameFree(trx, organizationId, teamId, name, tagId);
    }
    const changes = {
      ...(name !== undefined && { name }),
      ...(input.color !== undefined && { color: input.color }),
      ...(input.type !== undefined && { tag_type: input.type }),
      ...(input.description !== undefined && { description: input.description }),
    };
    let left: Awaited<ReturnType<typeof recordTagLeavingTickets>> = [];
    if (input.type !== undefined && input.type !== 'ticket') {
      // Tickets carry ticket tags only: a tag turned into a skills tag leaves them, as their timelines record.
      left = await recordTagLeavingTickets(trx, deps, organizationId, tagId, userActor(principal));
      await takeTagOffAllTickets(trx, tagId);
    }
    if (Object.keys(changes).length > 0) {
      await updateTeamTag(trx, tagId, { ...changes, updated_at: deps.clock.now().toISOString() }).catch(conflictAs(NAME_TAKEN));
    }
    // Last: the event log's lock comes after every other (see `event.recorder.ts`).
    await recordTicketsTagLeftEvents(trx, deps, organizationId, userActor(principal), left);
    return tagList(trx, organizationId, teamId);
  });
}

export async function deleteTag(deps: Deps, principal: Principal, teamId: string, tagId: string) {
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    await requireTag(trx, organizationId, teamId, tagId);
    // The tag leaves its tickets, as their timelines record (the foreign key cascades too).
    const left = await recordTagLeavingTickets(trx, deps, organizationId, tagId, userActor(principal));
    await takeTagOffAllTickets(trx, tagId);
    await deleteTeamTag(trx, tagId);
    await recordTicketsTagLeftEvents(trx, deps, organizationId, userActor(principal), left);
    return tagList(trx, organizationId, teamId);
  });
}

/** The tag inside a team already found (`Team not found!` comes first), or `Tag not found!`. */
async function requireTag(db: Db, organizationId: string, teamId: string, tagId: string): Promise<TeamTagRow> {
  const tag = await findTeamTagById(db, organizationId, teamId, tagId);
  if (!tag) {
    throw AppError.notFound('Tag not found!');
  }
  return tag;
}

/** Names are stored trimmed; one made only of spaces is refused. */
function checkedName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) {
    throw AppError.invalid('name must not be blank', { location: 'body', path: ['name'], rule: 'blank' });
  }
  return name;
}

/**
 * Case-insensitive uniqueness in the team, compared here rather than by `lower()` in SQL so that
 * both dialects agree on non-ASCII letters; the unique index still catches a concurrent insert.
 */
async function ensureNameFree(db: Db, organizationId: string, teamId: string, name: string, exceptTagId?: string) {
  const wanted = name.toLowerCase();
  const tags = await listTeamTags(db, organizationId, teamId);
  if (tags.some((tag) => tag.id !== exceptTagId && tag.name.toLowerCase() === wanted)) {
    throw AppError.conflict(NAME_TAKEN);
  }
}
