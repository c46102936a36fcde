import { DateTime } from 'luxon';
import { isWithinHours, type Schedule } from '../business-hours/hours.js';
import type { DailyConfig, Slot } from '../business-hours/hours.schemas.js';
import { type Condition, matchesRule, parseCondition, type RoutingTicket } from '../routing-rules/routing-rule.conditions.js';
import type { UserRoutingStrategy } from '../team-configurations/team-configuration.table.js';
import type { UserStatus } from '../users/user.table.js';

/**
 * The routing decisions themselves, free of the database: which team a ticket's rules send it to
 * (`chooseTeam`, rules fetched through a lookup) and which member of a team gets it
 * (`judgeTeam`). Everything the pipeline records and the explain endpoint shows is made here.
 */

/** Rules of at most this many teams are followed after the first one. */
export const MAX_HOPS = 5;

export interface RuleView {
  id: string;
  name: string;
  teamId: string;
  evaluationOrder: number;
  resultTeamId: string;
  fallbackTeamId: string | null;
  andRules: string[];
  orRules: string[];
}

/** What team choice needs to know about teams; the pipeline answers from the database. */
export interface TeamLookup {
  /** Whether the team exists in the organization and is not archived. */
  isActive(teamId: string): Promise<boolean>;
  /** The team's rules in ascending evaluation order. */
  rules(teamId: string): Promise<RuleView[]>;
}

export interface Hop {
  fromTeamId: string;
  ruleId: string;
  ruleName: string;
  evaluationOrder: number;
  resultTeamId: string;
  fallbackTeamId: string | null;
  /** Where the ticket went; null when it could not move (target gone, or a loop). */
  toTeamId: string | null;
  via: 'resultTeam' | 'fallbackTeam' | null;
  note: string;
}

/**
 * Why team choice stopped: no rule of the last team matched, the hop limit was reached, the next
 * team was already visited, the matching rule's teams are all archived or gone, or the rules were
 * not evaluated at all (the waiting-tickets worker only picks an agent).
 */
export type TeamStop = 'no_match' | 'max_hops' | 'loop' | 'unavailable' | 'not_evaluated';

export interface MatchedRule {
  id: string;
  name: string;
  teamId: string;
  evaluationOrder: number;
}

export interface TeamChoice {
  teamId: string;
  /** The rule that matched in the starting team, if any. */
  matchedRule: MatchedRule | null;
  hops: Hop[];
  stop: TeamStop;
}

function parseAll(texts: string[]): Condition[] | null {
  const conditions: Condition[] = [];
  for (const text of texts) {
    const parsed = parseCondition(text);
    if (!parsed.ok) {
      return null;
    }
    conditions.push(parsed.condition);
  }
  return conditions;
}

/** The first rule that matches, in evaluation order; a rule whose stored conditions no longer parse never matches. */
function firstMatch(rules: RuleView[], ticket: RoutingTicket): RuleView | undefined {
  return rules.find((rule) => {
    const andRules = parseAll(rule.andRules);
    const orRules = parseAll(rule.orRules);
    return andRules !== null && orRules !== null && matchesRule({ andRules, orRules }, ticket);
  });
}

async function targetOf(rule: RuleView, lookup: TeamLookup): Promise<{ teamId: string; via: Hop['via'] } | null> {
  if (await lookup.isActive(rule.resultTeamId)) {
    return { teamId: rule.resultTeamId, via: 'resultTeam' };
  }
  if (rule.fallbackTeamId && (await lookup.isActive(rule.fallbackTeamId))) {
    return { teamId: rule.fallbackTeamId, via: 'fallbackTeam' };
  }
  return null;
}

/**
 * Follows the rules from `startTeamId`: the first matching rule of the current team sends the
 * ticket to its result team (or its fallback team when the result team is archived or gone), whose
 * rules apply in turn; at most `MAX_HOPS` moves, never back to a team already visited.
 */
export async function chooseTeam(startTeamId: string, ticket: RoutingTicket, lookup: TeamLookup): Promise<TeamChoice> {
  const visited = [startTeamId];
  const hops: Hop[] = [];
  let matchedRule: MatchedRule | null = null;
  let current = startTeamId;
  for (;;) {
    if (hops.length >= MAX_HOPS) {
      return { teamId: current, matchedRule, hops, stop: 'max_hops' };
    }
    const rule = firstMatch(await lookup.rules(current), ticket);
    if (!rule) {
      return { teamId: current, matchedRule, hops, stop: 'no_match' };
    }
    if (current === startTeamId) {
      matchedRule = { id: rule.id, name: rule.name, teamId: rule.teamId, evaluationOrder: rule.evaluationOrder };
    }
    const base = {
      fromTeamId: current,
      ruleId: rule.id,
      ruleName: rule.name,
      evaluationOrder: rule.evaluationOrder,
      resultTeamId: rule.resultTeamId,
      fallbackTeamId: rule.fallbackTeamId,
    };
    const target = await targetOf(rule, lookup);
    if (!target) {
      hops.push({ ...base, toTeamId: null, via: null, note: 'result and fallback teams are archived or gone; stays' });
      return { teamId: current, matchedRule, hops, stop: 'unavailable' };
    }
    if (visited.includes(target.teamId)) {
      hops.push({ ...base, toTeamId: null, via: null, note: `team ${target.teamId} was already visited; stays (loop)` });
      return { teamId: current, matchedRule, hops, stop: 'loop' };
    }
    const note =
      target.via === 'resultTeam' ? 'moved to the result team' : 'result team archived or gone; moved to the fallback team';
    hops.push({ ...base, toTeamId: target.teamId, via: target.via, note });
    visited.push(target.teamId);
    current = target.teamId;
  }
}

/** A team's routing switches and hours, as read from its configuration. */
export interface RoutingSettings {
  strategy: UserRoutingStrategy;
  respectsTimezone: boolean;
  respectsUserCapacity: boolean;
  respectsUserTimezone: boolean;
  respectsUserAvailability: boolean;
  respectsUserBusinessHours: boolean;
  fallbackSubTeamId: string | null;
  /** The team's hours and holidays in its time zone. */
  schedule: Schedule;
}

/** A member as eligibility sees them. */
export interface Candidate {
  userId: string;
  name: string;
  email: string;
  status: UserStatus;
  capacity: number | null;
  openTickets: number;
  lastAssignedAt: string | null;
  lastAssignmentSeq: number | null;
  /** The member's own hours; the zone is the hours' own, else the user's, else null (the team's). */
  ownHours: { timezone: string | null; commonDailyConfig: boolean; commonSlots: Slot[]; dailyConfig: DailyConfig };
}

export type CheckName = 'strategy' | 'teamHours' | 'availability' | 'capacity' | 'businessHours';

export interface MemberCheck {
  check: CheckName;
  passed: boolean;
  detail: string;
}

export interface MemberVerdict {
  userId: string;
  name: string;
  email: string;
  status: UserStatus;
  capacity: number | null;
  openTickets: number;
  lastAssignedAt: string | null;
  eligible: boolean;
  /** One sentence: why the member is or is not eligible. */
  reason: string;
  checks: MemberCheck[];
}

export type TeamOutcome = 'assigned' | 'manual' | 'team_closed' | 'no_eligible_agent';

export interface TeamVerdict {
  teamId: string;
  strategy: UserRoutingStrategy;
  /** Whether the team is inside its hours; null when `routingRespectsTimezone` is off. */
  teamOpen: boolean | null;
  outcome: TeamOutcome;
  agentId: string | null;
  members: MemberVerdict[];
}

function localTime(at: Date, zone: string): DateTime {
  return DateTime.fromJSDate(at, { zone });
}

function describeLocal(at: Date, zone: string): string {
  return `${zone}, ${localTime(at, zone).toFormat('ccc yyyy-MM-dd HH:mm')}`;
}

function teamHoursCheck(settings: RoutingSettings, open: boolean, at: Date): MemberCheck {
  const { schedule } = settings;
  const local = localTime(at, schedule.timezone);
  const holiday = schedule.holidays.find((day) => day === local.toFormat('dd-MM') || day === local.toFormat('dd-MM-yyyy'));
  const where = describeLocal(at, schedule.timezone);
  if (open) {
    return { check: 'teamHours', passed: true, detail: `team is open (${where})` };
  }
  const why = holiday ? `holiday ${holiday}` : 'outside team hours';
  return { check: 'teamHours', passed: false, detail: `team is closed: ${why} (${where})` };
}

function businessHoursCheck(settings: RoutingSettings, candidate: Candidate, at: Date): MemberCheck {
  const zone = settings.respectsUserTimezone
    ? (candidate.ownHours.timezone ?? settings.schedule.timezone)
    : settings.schedule.timezone;
  const hours = settings.respectsUserBusinessHours ? candidate.ownHours : settings.schedule;
  const schedule: Schedule = {
    timezone: zone,
    commonDailyConfig: hours.commonDailyConfig,
    commonSlots: hours.commonSlots,
    dailyConfig: hours.dailyConfig,
    holidays: [],
  };
  const which = settings.respectsUserBusinessHours ? 'own hours' : 'team hours';
  const zoneOf = settings.respectsUserTimezone ? 'their own time zone' : "the team's time zone";
  const inside = isWithinHours(schedule, at);
  return {
    check: 'businessHours',
    passed: inside,
    detail: `${inside ? 'inside' : 'outside'} ${which} read in ${zoneOf} (${describeLocal(at, zone)})`,
  };
}

function memberChecks(settings: RoutingSettings, candidate: Candidate, teamOpen: boolean | null, at: Date): MemberCheck[] {
  const checks: MemberCheck[] = [];
  if (settings.strategy === 'manual') {
    checks.push({ check: 'strategy', passed: false, detail: 'the team assigns manually (userRoutingStrategy manual)' });
  }
  if (teamOpen !== null) {
    checks.push(teamHoursCheck(settings, teamOpen, at));
  }
  if (settings.respectsUserAvailability) {
    const online = candidate.status === 'online';
    checks.push({
      check: 'availability',
      passed: online,
      detail: `status is ${candidate.status}${online ? '' : ', not online'}`,
    });
  }
  if (settings.respectsUserCapacity) {
    const { capacity, openTickets } = candidate;
    const below = capacity === null || openTickets < capacity;
    const open = `${openTickets} open ticket${openTickets === 1 ? '' : 's'}`;
    const detail =
      capacity === null ? `${open}, no capacity limit` : `${open} of capacity ${capacity}${below ? '' : ', at capacity'}`;
    checks.push({ check: 'capacity', passed: below, detail });
  }
  if (settings.respectsUserBusinessHours || settings.respectsUserTimezone) {
    checks.push(businessHoursCheck(settings, candidate, at));
  }
  return checks;
}

function verdictOf(settings: RoutingSettings, candidate: Candidate, teamOpen: boolean | null, at: Date): MemberVerdict {
  const checks = memberChecks(settings, candidate, teamOpen, at);
  const failed = checks.filter((check) => !check.passed);
  const eligible = failed.length === 0;
  const reason = eligible
    ? checks.length === 0
      ? 'eligible: no routing switch applies'
      : `eligible: ${checks.map((check) => check.detail).join('; ')}`
    : `not eligible: ${failed.map((check) => check.detail).join('; ')}`;
  return {
    userId: candidate.userId,
    name: candidate.name,
    email: candidate.email,
    status: candidate.status,
    capacity: candidate.capacity,
    openTickets: candidate.openTickets,
    lastAssignedAt: candidate.lastAssignedAt,
    eligible,
    reason,
    checks,
  };
}

/** Round robin: the eligible member who has waited longest since a routed ticket; never-assigned first, then join order. */
function longestWaiting(eligible: Candidate[]): Candidate | undefined {
  const key = (candidate: Candidate) => [candidate.lastAssignedAt ?? '', candidate.lastAssignmentSeq ?? -1] as const;
  return eligible.reduce<Candidate | undefined>((best, candidate) => {
    if (!best) {
      return candidate;
    }
    const [at, seq] = key(candidate);
    const [bestAt, bestSeq] = key(best);
    return at < bestAt || (at === bestAt && seq < bestSeq) ? candidate : best;
  }, undefined);
}

/**
 * Judges every member of one team at `at` (members in join order) and picks the agent: nobody
 * when the team assigns manually or is closed, else the round-robin choice among the eligible.
 */
export function judgeTeam(teamId: string, settings: RoutingSettings, candidates: Candidate[], at: Date): TeamVerdict {
  const teamOpen = settings.respectsTimezone ? isWithinHours(settings.schedule, at) : null;
  const members = candidates.map((candidate) => verdictOf(settings, candidate, teamOpen, at));
  const base = { teamId, strategy: settings.strategy, teamOpen, members };
  if (settings.strategy === 'manual') {
    return { ...base, outcome: 'manual', agentId: null };
  }
  if (teamOpen === false) {
    return { ...base, outcome: 'team_closed', agentId: null };
  }
  const eligibleIds = new Set(members.filter((member) => member.eligible).map((member) => member.userId));
  const chosen = longestWaiting(candidates.filter((candidate) => eligibleIds.has(candidate.userId)));
  return chosen
    ? { ...base, outcome: 'assigned', agentId: chosen.userId }
    : { ...base, outcome: 'no_eligible_agent', agentId: null };
}
