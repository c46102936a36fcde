import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { TicketOptionKind } from './ticket.table.js';
import {
  countTicketOptions,
  insertTicketOptionsIfAbsent,
  listTicketOptions,
  type TicketOptionRow,
} from './ticket-option.repository.js';

interface OptionSeed {
  name: string;
  displayName: string;
  isDefault?: boolean;
  isClosed?: boolean;
  pausesSla?: boolean;
  color?: string;
  description?: string;
}

/** What every team starts with, as the upstream platform does. */
export const TEAM_DEFAULT_OPTIONS: Record<TicketOptionKind, OptionSeed[]> = {
  status: [
    { name: 'open', displayName: 'Open', isDefault: true, description: 'New and waiting to be worked on' },
    { name: 'in_progress', displayName: 'In progress', description: 'Someone is working on it' },
    { name: 'on_hold', displayName: 'On hold', pausesSla: true, description: 'Waiting on the requestor or a third party' },
    { name: 'closed', displayName: 'Closed', isClosed: true, description: 'Resolved' },
  ],
  priority: [
    { name: 'low', displayName: 'Low' },
    { name: 'medium', displayName: 'Medium', isDefault: true },
    { name: 'high', displayName: 'High' },
    { name: 'urgent', displayName: 'Urgent' },
  ],
  type: [
    { name: 'bug', displayName: 'Bug', color: '#db1f61' },
    { name: 'feature_request', displayName: 'Feature Request', color: '#1f74db' },
    { name: 'question', displayName: 'Question', color: '#1fdb8a' },
    { name: 'task', displayName: 'Task', color: '#db7a1f' },
  ],
};

type Db = Kysely<DB> | Transaction<DB>;
interface Deps {
  clock: Clock;
  ids: IdFactory;
}

/**
 * Seeds a team's statuses, priorities and types the first time they are needed, so teams made
 * before tickets existed (or by any path) get them too.
 */
export async function ensureTeamTicketOptions(db: Db, deps: Deps, team: { id: string; organization_id: string }): Promise<void> {
  if ((await countTicketOptions(db, team.id)) > 0) {
    return;
  }
  const at = deps.clock.now().toISOString();
  const rows = (Object.entries(TEAM_DEFAULT_OPTIONS) as [TicketOptionKind, OptionSeed[]][]).flatMap(([kind, seeds]) =>
    seeds.map((seed, position) => ({
      id: deps.ids.ulid(),
      organization_id: team.organization_id,
      team_id: team.id,
      kind,
      name: seed.name,
      display_name: seed.displayName,
      description: seed.description ?? null,
      color: seed.color ?? null,
      is_default: seed.isDefault ?? false,
      is_closed: seed.isClosed ?? false,
      pauses_sla: seed.pausesSla ?? false,
      position,
      created_at: at,
      updated_at: at,
    })),
  );
  await insertTicketOptionsIfAbsent(db, rows);
}

export async function listTeamOptions(db: Db, deps: Deps, team: { id: string; organization_id: string }, kind: TicketOptionKind) {
  await ensureTeamTicketOptions(db, deps, team);
  return listTicketOptions(db, team.id, kind);
}

/** The team's options of a kind as stored, without seeding them: for a read that must write nothing (an export). */
export async function listStoredTeamOptions(db: Db, teamId: string, kind: TicketOptionKind) {
  return listTicketOptions(db, teamId, kind);
}

/**
 * Picks an option by id (wins) or by name (case-insensitive, display name or key), else the
 * default. A value that names nothing is a 400 on `field`.
 */
export function resolveTicketOption(
  options: TicketOptionRow[],
  choice: { id?: string | null; name?: string | null },
  field: { idField: string; nameField: string; required: boolean },
): TicketOptionRow | null {
  if (choice.id) {
    const byId = options.find((option) => option.id === choice.id);
    if (!byId) {
      throw AppError.invalid(`${field.idField} is not one of the team's options`, {
        location: 'body',
        path: [field.idField],
        rule: 'reference',
      });
    }
    return byId;
  }
  if (choice.name) {
    const wanted = choice.name.trim().toLowerCase();
    const byName = options.find((option) => option.display_name.toLowerCase() === wanted || option.name === wanted);
    if (!byName) {
      const names = options.map((option) => option.display_name).join(', ');
      throw AppError.invalid(`${field.nameField} must be one of: ${names}`, {
        location: 'body',
        path: [field.nameField],
        rule: 'reference',
      });
    }
    return byName;
  }
  return field.required ? (options.find((option) => readBoolean(option.is_default)) ?? options[0] ?? null) : null;
}

export interface TeamOptions {
  statuses: TicketOptionRow[];
  priorities: TicketOptionRow[];
  types: TicketOptionRow[];
}

export async function loadTeamOptions(
  trx: Transaction<DB>,
  deps: Deps,
  team: { id: string; organization_id: string },
): Promise<TeamOptions> {
  return {
    statuses: await listTeamOptions(trx, deps, team, 'status'),
    priorities: await listTeamOptions(trx, deps, team, 'priority'),
    types: await listTeamOptions(trx, deps, team, 'type'),
  };
}

/** A status, priority and type picked among a team's options. */
export interface ChosenOptions {
  status: TicketOptionRow;
  priority: TicketOptionRow;
  type: TicketOptionRow | null;
}

export type OptionName = Pick<TicketOptionRow, 'name' | 'display_name'>;

/**
 * The options of another team that stand for the ticket's: same key, else same display name,
 * else that team's default (a type with no counterpart is dropped).
 */
export function remapOptions(
  target: TeamOptions,
  current: { status: OptionName | null; priority: OptionName | null; type: OptionName | null },
): ChosenOptions {
  const same = (options: TicketOptionRow[], option: OptionName | null) =>
    option
      ? (options.find((candidate) => candidate.name === option.name) ??
        options.find((candidate) => candidate.display_name.toLowerCase() === option.display_name.toLowerCase()))
      : undefined;
  const fallback = (options: TicketOptionRow[]) => options.find((option) => readBoolean(option.is_default)) ?? options[0];
  const status = same(target.statuses, current.status) ?? fallback(target.statuses);
  const priority = same(target.priorities, current.priority) ?? fallback(target.priorities);
  if (!status || !priority) {
    throw new Error('the team has no statuses or priorities');
  }
  return { status, priority, type: same(target.types, current.type) ?? null };
}
