import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson, writeJson } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import type { DailyConfig, Slot } from '../business-hours/hours.schemas.js';
import { notifyTicketAssigned } from '../notifications/ticket-notification.service.js';
import type { RoutingTicket, TicketFieldValue } from '../routing-rules/routing-rule.conditions.js';
import { listRulesOfTeam } from '../routing-rules/routing-rule.lookup.js';
import { DEFAULT_DAILY_CONFIG } from '../team-configurations/team-configuration.defaults.js';
import { findTeamConfigurationOrDefaults } from '../team-configurations/team-configuration.lookup.js';
import { findTeam } from '../teams/team.lookup.js';
import type { TeamRow } from '../teams/team.repository.js';
import { beginTicketChange, routingActor } from '../ticket-activities/ticket-activity.recorder.js';
import { writeTicketAssignment } from '../tickets/ticket-rows.service.js';
import {
  type Candidate,
  chooseTeam,
  judgeTeam,
  type MatchedRule,
  type RoutingSettings,
  type TeamChoice,
  type TeamLookup,
  type TeamVerdict,
} from './routing.engine.js';
import {
  type CandidateUserRow,
  claimOldestWaitingTicket,
  countOpenTickets,
  findCandidateUsers,
  insertRoutingDecision,
  listRoutingMembers,
  listTeamIdsServedBy,
  listTeamsWithWaitingTickets,
  listUserHours,
  lockCandidateUsers,
  markUserAssigned,
} from './routing.repository.js';
import type { RoutingOutcome, RoutingTrigger } from './routing.table.js';

/**
 * Routing as the rest of the platform runs it, inside the caller's transaction: team choice by
 * rules, agent choice by the chosen team's configuration, the decision recorded with its
 * explanation, and the waiting-tickets passes the worker and the triggers run.
 */

/** An assignment emails the assignee (`ticket-email.service.ts`). */
export type PipelineDeps = TicketEmailDeps;

type Db = Kysely<DB> | Transaction<DB>;

/** What a decision records and the API shows: the team step, then the agent step. */
export interface RoutingExplanation {
  at: string;
  startTeamId: string;
  matchedRule: MatchedRule | null;
  hops: TeamChoice['hops'];
  stop: TeamChoice['stop'];
  teamId: string;
  teamName: string;
  outcome: RoutingOutcome;
  agentId: string | null;
  agentName: string | null;
  /** The team the agent was chosen from: the ticket's team or its fallback sub-team. */
  agentTeamId: string | null;
  /** The agent step in the chosen team; null when the request named the agent. */
  team: TeamVerdict | null;
  /** The agent step in the fallback sub-team, when the team had nobody eligible. */
  fallbackSubTeam: TeamVerdict | null;
}

export interface RouteResult {
  explanation: RoutingExplanation;
  /** The chosen team, where the ticket belongs now. */
  team: TeamRow;
  agentId: string | null;
  /** True when the ticket is left for the waiting-tickets worker. */
  waiting: boolean;
}

export interface TicketFacts {
  title: string;
  description: string | null;
  source: string | null;
  requestorEmail: string | null;
  accountId: string | null;
  status: { name: string; display_name: string } | null;
  priority: { name: string; display_name: string } | null;
  type: { name: string; display_name: string } | null;
  customFieldValues: { fieldId: string; value: unknown }[];
  /** The ticket's tags; conditions on `tags` match a tag's name (ignoring case) or its id. */
  tags: readonly { id: string; name: string }[];
}

/** An option is known by its key (`in_progress`) and its display name (`In progress`); conditions may use either. */
function optionNames(option: { name: string; display_name: string } | null): TicketFieldValue {
  if (!option) {
    return null;
  }
  return option.name.toLowerCase() === option.display_name.toLowerCase() ? option.name : [option.name, option.display_name];
}

function fieldValue(value: unknown): TicketFieldValue {
  if (value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) {
    return value as TicketFieldValue;
  }
  if (Array.isArray(value)) {
    return value.map((item) => (['string', 'number', 'boolean'].includes(typeof item) ? item : JSON.stringify(item)));
  }
  return JSON.stringify(value);
}

/** The ticket as routing rules see it. */
export function routingTicket(facts: TicketFacts): RoutingTicket {
  return {
    title: facts.title,
    description: facts.description,
    priority: optionNames(facts.priority),
    status: optionNames(facts.status),
    source: facts.source,
    requestorEmail: facts.requestorEmail,
    accountId: facts.accountId,
    type: optionNames(facts.type),
    tags: facts.tags.flatMap((tag) => [tag.name, tag.id]),
    customFields: Object.fromEntries(facts.customFieldValues.map((entry) => [entry.fieldId, fieldValue(entry.value)])),
  };
}

export function teamLookup(db: Db, organizationId: string): TeamLookup {
  return {
    isActive: async (teamId) => (await findTeam(db, organizationId, teamId)) !== undefined,
    rules: async (teamId) =>
      (await listRulesOfTeam(db, organizationId, teamId)).map((rule) => ({
        id: rule.id,
        name: rule.name,
        teamId: rule.team_id,
        evaluationOrder: Number(rule.evaluation_order),
        resultTeamId: rule.result_team_id,
        fallbackTeamId: rule.fallback_team_id,
        andRules: readJson<string[]>(rule.and_rules) ?? [],
        orRules: readJson<string[]>(rule.or_rules) ?? [],
      })),
  };
}

async function loadSettings(db: Db, team: { id: string; organization_id: string; created_at: string }): Promise<RoutingSettings> {
  const row = await findTeamConfigurationOrDefaults(db, team);
  return {
    strategy: row.user_routing_strategy,
    respectsTimezone: readBoolean(row.routing_respects_timezone),
    respectsUserCapacity: readBoolean(row.routing_respects_user_capacity),
    respectsUserTimezone: readBoolean(row.routing_respects_user_timezone),
    respectsUserAvailability: readBoolean(row.routing_respects_user_availability),
    respectsUserBusinessHours: readBoolean(row.routing_respects_user_business_hours),
    fallbackSubTeamId: row.fallback_sub_team_id,
    schedule: {
      timezone: row.timezone,
      commonDailyConfig: readBoolean(row.common_daily_config),
      commonSlots: readJson<Slot[]>(row.common_slots) ?? [],
      dailyConfig: readJson<DailyConfig>(row.daily_config) ?? {},
      holidays: readJson<string[]>(row.holidays) ?? [],
    },
  };
}

interface CandidatePool {
  /** Members of each team, in join order. */
  byTeam: Map<string, Candidate[]>;
  users: CandidateUserRow[];
}

/** Members of the teams with their routing fields, open-ticket counts and own hours; locked unless `dryRun`. */
async function loadCandidates(
  trx: Transaction<DB>,
  organizationId: string,
  teamIds: string[],
  dryRun: boolean,
): Promise<CandidatePool> {
  const members = await listRoutingMembers(trx, teamIds);
  const userIds = [...new Set(members.map((member) => member.user_id))].sort();
  const users = dryRun
    ? await findCandidateUsers(trx, organizationId, userIds)
    : await lockCandidateUsers(trx, organizationId, userIds);
  const open = await countOpenTickets(trx, userIds);
  const hours = new Map((await listUserHours(trx, userIds)).map((row) => [row.user_id, row]));
  const usersById = new Map(users.map((user) => [user.id, user]));
  const byTeam = new Map<string, Candidate[]>(teamIds.map((teamId) => [teamId, []]));
  for (const member of members) {
    const user = usersById.get(member.user_id);
    if (!user) {
      continue;
    }
    const own = hours.get(user.id);
    byTeam.get(member.team_id)?.push({
      userId: user.id,
      name: user.name,
      email: user.email,
      status: user.status,
      capacity: user.capacity === null ? null : Number(user.capacity),
      openTickets: open.get(user.id) ?? 0,
      lastAssignedAt: user.last_assigned_at,
      lastAssignmentSeq: user.last_assignment_seq === null ? null : Number(user.last_assignment_seq),
      ownHours: {
        timezone: own?.timezone ?? user.timezone,
        commonDailyConfig: own ? readBoolean(own.common_daily_config) : false,
        commonSlots: own ? (readJson<Slot[]>(own.common_slots) ?? []) : [{ start: '09:00', end: '17:00' }],
        dailyConfig: own ? (readJson<DailyConfig>(own.daily_config) ?? {}) : DEFAULT_DAILY_CONFIG,
      },
    });
  }
  return { byTeam, users };
}

export interface AgentChoice {
  outcome: Exclude<RoutingOutcome, 'explicit_agent'>;
  agentId: string | null;
  agentName: string | null;
  agentTeamId: string | null;
  team: TeamVerdict;
  fallbackSubTeam: TeamVerdict | null;
}

/**
 * The agent step for a ticket of `team` at `at`: the team's round robin, then its fallback
 * sub-team's; the chosen member's last assignment is recorded. With `dryRun` nothing is locked
 * or written.
 */
export async function chooseAgent(
  trx: Transaction<DB>,
  team: TeamRow,
  at: Date,
  options: { dryRun?: boolean } = {},
): Promise<AgentChoice> {
  const dryRun = options.dryRun ?? false;
  const settings = await loadSettings(trx, team);
  const subTeam =
    settings.strategy === 'round_robin' && settings.fallbackSubTeamId
      ? await findTeam(trx, team.organization_id, settings.fallbackSubTeamId)
      : undefined;
  const subSettings = subTeam ? await loadSettings(trx, subTeam) : undefined;
  const teamIds = subTeam ? [team.id, subTeam.id] : [team.id];
  const assigns = settings.strategy === 'round_robin' || subSettings?.strategy === 'round_robin';
  const pool = await loadCandidates(trx, team.organization_id, teamIds, dryRun || !assigns);
  const verdict = judgeTeam(team.id, settings, pool.byTeam.get(team.id) ?? [], at);
  let fallback: TeamVerdict | null = null;
  let chosen = verdict.agentId ? { agentId: verdict.agentId, teamId: team.id } : null;
  if (!chosen && verdict.outcome === 'no_eligible_agent' && subTeam && subSettings) {
    fallback = judgeTeam(subTeam.id, subSettings, pool.byTeam.get(subTeam.id) ?? [], at);
    chosen = fallback.agentId ? { agentId: fallback.agentId, teamId: subTeam.id } : null;
  }
  const agent = chosen ? pool.users.find((user) => user.id === chosen.agentId) : undefined;
  if (chosen && !dryRun) {
    const seq = Math.max(0, ...pool.users.map((user) => Number(user.last_assignment_seq ?? 0))) + 1;
    await markUserAssigned(trx, chosen.agentId, at.toISOString(), seq);
  }
  return {
    outcome: chosen ? 'assigned' : verdict.outcome,
    agentId: chosen?.agentId ?? null,
    agentName: agent?.name ?? null,
    agentTeamId: chosen?.teamId ?? null,
    team: verdict,
    fallbackSubTeam: fallback,
  };
}

export interface RouteInput {
  organizationId: string;
  startTeamId: string;
  facts: TicketFacts;
  at: Date;
  /** The agent the request named; routing then only chooses the team. */
  explicitAgentId?: string | null;
  /** Simulation: no row locks, no writes. */
  dryRun?: boolean;
}

/** Team choice, then agent choice in the chosen team. The caller applies the result to the ticket. */
export async function routeTicket(trx: Transaction<DB>, input: RouteInput): Promise<RouteResult> {
  const choice = await chooseTeam(input.startTeamId, routingTicket(input.facts), teamLookup(trx, input.organizationId));
  const team =
    (await findTeam(trx, input.organizationId, choice.teamId)) ??
    (await findTeam(trx, input.organizationId, choice.teamId, { includeArchived: true }));
  if (!team) {
    throw new Error(`routing chose team ${choice.teamId}, which does not exist`);
  }
  const teamStep = { ...choice, startTeamId: input.startTeamId, teamName: team.name, at: input.at.toISOString() };
  if (input.explicitAgentId) {
    const [agent] = await findCandidateUsers(trx, input.organizationId, [input.explicitAgentId]);
    return {
      team,
      agentId: input.explicitAgentId,
      waiting: false,
      explanation: {
        ...teamStep,
        outcome: 'explicit_agent',
        agentId: input.explicitAgentId,
        agentName: agent?.name ?? null,
        agentTeamId: null,
        team: null,
        fallbackSubTeam: null,
      },
    };
  }
  const agent = await chooseAgent(trx, team, input.at, { dryRun: input.dryRun });
  return { team, agentId: agent.agentId, waiting: agent.agentId === null, explanation: explain(teamStep, agent) };
}

function explain(teamStep: Omit<RoutingExplanation, keyof AgentChoice | 'agentName' | 'agentId'>, agent: AgentChoice) {
  return {
    ...teamStep,
    outcome: agent.outcome,
    agentId: agent.agentId,
    agentName: agent.agentName,
    agentTeamId: agent.agentTeamId,
    team: agent.team,
    fallbackSubTeam: agent.fallbackSubTeam,
  };
}

export interface DecisionInput {
  organizationId: string;
  ticketId: string;
  trigger: RoutingTrigger;
  fromTeamId: string;
  explanation: RoutingExplanation;
  previousTicketIdentifier?: string | null;
  decidedById?: string | null;
}

/** Stores one decision with its explanation; answers its id. */
export async function recordRoutingDecision(db: Db, deps: PipelineDeps, input: DecisionInput): Promise<string> {
  const id = deps.ids.ulid();
  await insertRoutingDecision(db, {
    id,
    organization_id: input.organizationId,
    ticket_id: input.ticketId,
    trigger: input.trigger,
    from_team_id: input.fromTeamId,
    team_id: input.explanation.teamId,
    agent_id: input.explanation.agentId,
    outcome: input.explanation.outcome,
    matched_rule_id: input.explanation.matchedRule?.id ?? null,
    previous_ticket_identifier: input.previousTicketIdentifier ?? null,
    explanation: writeJson(input.explanation) ?? '{}',
    decided_by_id: input.decidedById ?? null,
    created_at: deps.clock.now().toISOString(),
  });
  return id;
}

/**
 * Assigns the team's waiting tickets oldest first, one transaction each, until none is left,
 * nobody is eligible or `limit` is reached; answers how many it assigned. Each ticket is claimed
 * with `for update skip locked` and the candidates are locked, so any number of processes may
 * run this for one team at once.
 */
export async function assignWaitingTickets(
  db: Kysely<DB>,
  deps: PipelineDeps,
  target: { organizationId: string; teamId: string },
  options: { trigger: RoutingTrigger; limit: number },
): Promise<number> {
  const team = await findTeam(db, target.organizationId, target.teamId);
  if (!team || (await loadSettings(db, team)).strategy === 'manual') {
    return 0;
  }
  let assigned = 0;
  while (assigned < options.limit) {
    const done = await db.transaction().execute(async (trx) => {
      const ticket = await claimOldestWaitingTicket(trx, team.id);
      if (!ticket) {
        return true;
      }
      const at = deps.clock.now();
      const agent = await chooseAgent(trx, team, at);
      if (!agent.agentId) {
        return true;
      }
      const iso = at.toISOString();
      const change = await beginTicketChange(trx, deps, team.organization_id, ticket.id);
      await writeTicketAssignment(trx, team.organization_id, ticket.id, {
        assigned_agent_id: agent.agentId,
        assigned_at: iso,
        awaiting_assignment_since: null,
        updated_at: iso,
      });
      const teamStep = {
        at: iso,
        startTeamId: team.id,
        matchedRule: null,
        hops: [],
        stop: 'not_evaluated' as const,
        teamId: team.id,
        teamName: team.name,
      };
      const decisionId = await recordRoutingDecision(trx, deps, {
        organizationId: team.organization_id,
        ticketId: ticket.id,
        trigger: options.trigger,
        fromTeamId: team.id,
        explanation: explain(teamStep, agent),
      });
      await change.finish(routingActor(decisionId));
      await notifyTicketAssigned(trx, deps, { organizationId: team.organization_id, ticketId: ticket.id, actorUserId: null });
      return false;
    });
    if (done) {
      break;
    }
    assigned++;
  }
  return assigned;
}

/** How many waiting tickets one trigger assigns per team in the request; the worker does the rest. */
const TRIGGER_LIMIT = 100;

/**
 * After a member became available or freed capacity: assigns waiting tickets of the teams they
 * serve. Runs after the triggering change committed; a failure is logged and left to the worker.
 */
export async function assignWaitingTicketsServedBy(
  deps: PipelineDeps & { db: Kysely<DB>; log?: Pick<FastifyBaseLogger, 'warn'> },
  organizationId: string,
  userId: string,
  trigger: RoutingTrigger,
): Promise<number> {
  try {
    let assigned = 0;
    for (const teamId of await listTeamIdsServedBy(deps.db, organizationId, userId)) {
      assigned += await assignWaitingTickets(deps.db, deps, { organizationId, teamId }, { trigger, limit: TRIGGER_LIMIT });
    }
    return assigned;
  } catch (error) {
    deps.log?.warn({ err: error, userId, trigger }, 'assigning waiting tickets failed; the routing worker will retry');
    return 0;
  }
}

/** One pass over every team with waiting tickets (the worker's job: team openings, missed triggers). */
export async function assignAllWaitingTickets(db: Kysely<DB>, deps: PipelineDeps, limitPerTeam: number): Promise<number> {
  let assigned = 0;
  for (const team of await listTeamsWithWaitingTickets(db)) {
    assigned += await assignWaitingTickets(
      db,
      deps,
      { organizationId: team.organization_id, teamId: team.team_id },
      { trigger: 'worker', limit: limitPerTeam },
    );
  }
  return assigned;
}
