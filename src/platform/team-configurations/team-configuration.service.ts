import type { Kysely, Transaction, Updateable } from 'kysely';
import { isLiveAgentOfOrganization, startTicketAgentCursor } from '../../agent-studio/ticket-agents/ticket-agent.setup.js';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { businessHoursStatus, validateHours } from '../business-hours/hours.js';
import type { DailyConfig } from '../business-hours/hours.schemas.js';
import { requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam } from '../teams/team.service.js';
import { recalculateTeamSla } from '../ticket-sla/ticket-sla.service.js';
import { defaultTeamConfiguration } from './team-configuration.defaults.js';
import { toSchedule, toTeamConfiguration } from './team-configuration.presenter.js';
import {
  findActiveSubTeam,
  findTeamConfiguration,
  insertTeamConfiguration,
  lockTeamConfiguration,
  type TeamConfigurationRow,
  updateTeamConfiguration as updateConfigurationRow,
} from './team-configuration.repository.js';
import type { TeamConfiguration, UpdateTeamConfiguration } from './team-configuration.schemas.js';
import type { TeamConfigurationTable } from './team-configuration.table.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The team's stored configuration, or the defaults it was made with if the row is missing. */
async function currentConfiguration(db: Db, organizationId: string, teamId: string): Promise<TeamConfigurationRow> {
  const team = await requireTeam(db, organizationId, teamId);
  return (
    (await findTeamConfiguration(db, organizationId, teamId)) ?? defaultTeamConfiguration(teamId, organizationId, team.created_at)
  );
}

export async function getTeamConfiguration(db: Kysely<DB>, principal: Principal, teamId: string): Promise<TeamConfiguration> {
  return toTeamConfiguration(await currentConfiguration(db, principal.organizationId, teamId));
}

/**
 * The configuration with each day's hours as stored: `dailyConfig` keeps them while
 * `commonDailyConfig` is on (the API shows the week as it applies), so a copy of the set-up (the
 * configuration export) restores them too.
 */
export async function getStoredTeamConfiguration(db: Db, principal: Principal, teamId: string): Promise<TeamConfiguration> {
  const row = await currentConfiguration(db, principal.organizationId, teamId);
  return { ...toTeamConfiguration(row), dailyConfig: readJson<DailyConfig>(row.daily_config) ?? {} };
}

const json = (value: unknown): string | undefined => (value === undefined ? undefined : (writeJson(value) ?? 'null'));

/** Columns to write for the fields sent; days sent in `dailyConfig` replace those days only. */
function configurationChanges(row: TeamConfigurationRow, body: UpdateTeamConfiguration): Updateable<TeamConfigurationTable> {
  const dailyConfig = body.dailyConfig && { ...(readJson<DailyConfig>(row.daily_config) ?? {}), ...body.dailyConfig };
  const changes: Updateable<TeamConfigurationTable> = {
    timezone: body.timezone,
    routing_respects_timezone: body.routingRespectsTimezone,
    routing_respects_user_capacity: body.routingRespectsUserCapacity,
    routing_respects_user_timezone: body.routingRespectsUserTimezone,
    routing_respects_user_availability: body.routingRespectsUserAvailability,
    routing_respects_user_business_hours: body.routingRespectsUserBusinessHours,
    user_routing_strategy: body.userRoutingStrategy,
    fallback_sub_team_id: body.fallbackSubTeam,
    holidays: json(body.holidays),
    common_daily_config: body.commonDailyConfig,
    common_slots: json(body.commonSlots),
    daily_config: json(dailyConfig),
    ai_agent_id: body.aiAgentId,
    ai_agent_mode: body.aiAgentMode,
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

async function requireFallbackSubTeam(db: Db, organizationId: string, teamId: string, subTeamId: string): Promise<void> {
  if (!(await findActiveSubTeam(db, organizationId, teamId, subTeamId))) {
    throw AppError.invalid('fallbackSubTeam must be an active sub-team of this team', {
      location: 'body',
      path: ['fallbackSubTeam'],
      rule: 'subTeam',
    });
  }
}

/**
 * The agent a team's tickets are given to must be a live agent of the organization, and `draft` or
 * `auto` need one. Switching an agent on starts the organization's cursor at the log's end, so the
 * agent answers what happens from now on, not the history.
 */
async function checkTicketAgent(
  trx: Transaction<DB>,
  organizationId: string,
  row: TeamConfigurationRow,
  body: UpdateTeamConfiguration,
  now: string,
): Promise<void> {
  const agentId = body.aiAgentId === undefined ? row.ai_agent_id : body.aiAgentId;
  const mode = body.aiAgentMode ?? row.ai_agent_mode;
  if (typeof body.aiAgentId === 'string' && !(await isLiveAgentOfOrganization(trx, organizationId, body.aiAgentId))) {
    throw AppError.invalid('aiAgentId must be an agent of this organization', {
      location: 'body',
      path: ['aiAgentId'],
      rule: 'agent',
    });
  }
  if (mode !== 'off' && agentId === null) {
    throw AppError.invalid(`aiAgentMode ${mode} needs an agent: set aiAgentId`, {
      location: 'body',
      path: ['aiAgentMode'],
      rule: 'agent',
    });
  }
  if (mode !== 'off') {
    await startTicketAgentCursor(trx, organizationId, now);
  }
}

/**
 * Changes only the fields sent, after checking hours and the fallback sub-team; nothing is written
 * on a 400. Only an admin or a manager of the team may: the configuration decides who gets the
 * team's tickets, and which AI agent answers its customers. `deps.db` may be a transaction of the
 * caller's, which the change then joins.
 */
const HOUR_COLUMNS = ['timezone', 'common_daily_config', 'common_slots', 'daily_config', 'holidays'];

export async function updateTeamConfiguration(
  deps: { db: Kysely<DB>; clock: Clock; ids: IdFactory },
  principal: Principal,
  teamId: string,
  body: UpdateTeamConfiguration,
): Promise<TeamConfiguration> {
  validateHours(body);
  const { organizationId } = principal;
  return inTransaction(deps.db, async (trx) => {
    await requireManagedTeam(trx, principal, teamId);
    const now = deps.clock.now().toISOString();
    let row = await lockTeamConfiguration(trx, organizationId, teamId);
    const storedHours = row !== undefined;
    if (!row) {
      row = defaultTeamConfiguration(teamId, organizationId, now);
      await insertTeamConfiguration(trx, row);
    }
    if (typeof body.fallbackSubTeam === 'string') {
      await requireFallbackSubTeam(trx, organizationId, teamId, body.fallbackSubTeam);
    }
    await checkTicketAgent(trx, organizationId, row, body, now);
    const changes = configurationChanges(row, body);
    // What the team's running SLA targets have consumed so far counts in the hours as they were.
    const previous = storedHours ? toSchedule(toTeamConfiguration(row)) : null;
    if (Object.keys(changes).length > 0) {
      await updateConfigurationRow(trx, organizationId, teamId, { ...changes, updated_at: now });
    }
    if (HOUR_COLUMNS.some((column) => column in changes)) {
      // Due times of the team's running SLA targets move with its hours, in this transaction.
      await recalculateTeamSla(trx, deps, { organizationId, teamId, actor: { type: 'user', id: principal.userId }, previous });
    }
    return toTeamConfiguration(await currentConfiguration(trx, organizationId, teamId));
  });
}

export async function getBusinessHoursStatus(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  teamId: string,
  at: string | undefined,
) {
  const when = at === undefined ? deps.clock.now() : new Date(at);
  if (Number.isNaN(when.getTime())) {
    throw AppError.invalid('at must be a valid date-time', { location: 'query', path: ['at'], rule: 'format' });
  }
  return { teamId, ...(await teamHoursStatus(deps.db, principal.organizationId, teamId, when)) };
}

/** Whether a team of the organization is within its business hours at `at`, and when that changes next. */
export async function teamHoursStatus(db: Kysely<DB>, organizationId: string, teamId: string, at: Date) {
  const configuration = toTeamConfiguration(await currentConfiguration(db, organizationId, teamId));
  return {
    timezone: configuration.timezone,
    at: at.toISOString(),
    ...businessHoursStatus(toSchedule(configuration), at),
  };
}
