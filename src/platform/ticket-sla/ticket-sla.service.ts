import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { ActorType } from '../../shared/event-types.js';
import { SLA_METRICS, type SlaMetric } from '../../shared/sla.js';
import type { Schedule } from '../business-hours/hours.js';
import { writePendingReports } from '../reports/report-aggregates.service.js';
import { recordSlaOutcomesForReports, type SlaOutcome } from '../reports/report-outcomes.service.js';
import { matchesRule, type RoutingTicket } from '../routing-rules/routing-rule.conditions.js';
import { listMatchablePolicies, type MatchablePolicy } from '../sla-policies/sla-policy.lookup.js';
import { findTeamSchedule } from '../team-configurations/team-configuration.lookup.js';
import { tagsOfTicket } from '../ticket-tags/ticket-tag.lookup.js';
import {
  breachIfDue,
  isStarted,
  meet,
  pause,
  recalculate,
  resume,
  type Step,
  scheduleOf,
  start,
  type TargetRow,
} from './ticket-sla.clock.js';
import {
  deleteTargets,
  findTicketSlaFacts,
  insertSlaEvents,
  insertTarget,
  listTicketTargets,
  lockRunningTargetsOfTeam,
  lockTicketRow,
  lockTicketsWithTargetsInStatus,
  lockTicketTargets,
  type TicketSlaFacts,
  updateTarget,
} from './ticket-sla.repository.js';
import type { SlaEventKind } from './ticket-sla.table.js';

/**
 * The SLA clock of tickets, kept in the transaction of each change: which policy applies (the
 * first matching, by position), each metric's target, and its start, pause, resume, met and breach,
 * every step written to `ticket_sla_events` with its reason and actor.
 */

interface Deps {
  clock: Clock;
  ids: IdFactory;
}

export interface SlaActor {
  type: ActorType;
  id: string | null;
}

type Db = Kysely<DB> | Transaction<DB>;

/** Started when the policy applies; the other two start on comments. */
const STARTED_ON_APPLY: readonly SlaMetric[] = ['firstReply', 'resolution'];

/** Writes steps and their events for one ticket; the team's hours are read once, when first needed. */
class TicketClock {
  private schedule: Promise<Schedule | null> | undefined;
  private readonly events: Parameters<typeof insertSlaEvents>[1] = [];
  private readonly outcomes: SlaOutcome[] = [];
  readonly now: Date;

  constructor(
    private readonly trx: Db,
    private readonly deps: Deps,
    private readonly ticket: { organizationId: string; ticketId: string; teamId: string },
    private readonly actor: SlaActor,
  ) {
    this.now = deps.clock.now();
  }

  async scheduleFor(row: Pick<TargetRow, 'business_hours'>): Promise<Schedule | null> {
    if (!readBoolean(row.business_hours)) {
      return null;
    }
    this.schedule ??= findTeamSchedule(this.trx, this.ticket.organizationId, this.ticket.teamId);
    return scheduleOf(row, await this.schedule);
  }

  /** Applies a step to the row in memory and in the database, and queues its event. */
  async apply(row: TargetRow, step: Step | null, actor: SlaActor = this.actor): Promise<void> {
    if (!step) {
      return;
    }
    this.countOutcome(row, step);
    Object.assign(row, step.changes);
    if (Object.keys(step.changes).length > 0) {
      await updateTarget(this.trx, row.id, { ...step.changes, updated_at: this.now.toISOString() });
    }
    if (step.event) {
      this.record(step.event.kind, step.event.reason, { row, dueAt: step.event.dueAt, actor });
    }
  }

  /** For the SLA report: a breach marked (on its due day), a target met in time (see `report.table.ts`). */
  private countOutcome(row: TargetRow, step: Step): void {
    const outcome = { policyId: row.policy_id, metric: row.metric, met: 0, breached: 0 };
    if (step.event?.kind === 'breach') {
      this.outcomes.push({ ...outcome, breached: 1, at: new Date(step.changes.breached_at ?? this.now) });
    } else if (step.event?.kind === 'met' && step.changes.status === 'met') {
      this.outcomes.push({ ...outcome, met: 1, at: this.now });
    }
  }

  /** A resolution met in time and now reopened: its met is taken back, on the day it was counted. */
  takeBackMet(row: TargetRow): void {
    if (row.status === 'met' && row.met_at) {
      this.outcomes.push({ policyId: row.policy_id, metric: row.metric, met: -1, breached: 0, at: new Date(row.met_at) });
    }
  }

  record(
    kind: SlaEventKind,
    reason: string,
    options: { row?: TargetRow; policyId?: string | null; dueAt?: string | null; actor?: SlaActor } = {},
  ): void {
    const actor = options.actor ?? this.actor;
    this.events.push({
      id: this.deps.ids.ulid(),
      organization_id: this.ticket.organizationId,
      ticket_id: this.ticket.ticketId,
      policy_id: options.row?.policy_id ?? options.policyId ?? null,
      target_id: options.row?.id ?? null,
      metric: options.row?.metric ?? null,
      kind,
      reason,
      due_at: options.dueAt ?? null,
      actor_type: actor.type,
      actor_id: actor.id,
      created_at: this.now.toISOString(),
    });
  }

  /** Writes the events; the report's counts wait for the change's report rows unless `writeReports`. */
  async flush(options: { writeReports?: boolean } = {}): Promise<void> {
    await insertSlaEvents(this.trx, this.events.splice(0));
    const ticket = { organizationId: this.ticket.organizationId, ticketId: this.ticket.ticketId };
    await recordSlaOutcomesForReports(this.trx as Transaction<DB>, ticket, this.outcomes.splice(0), {
      write: options.writeReports,
    });
  }
}

const SYSTEM: SlaActor = { type: 'system', id: null };

function optionNames(key: string | null, name: string | null) {
  return key && name && key.toLowerCase() !== name.toLowerCase() ? [key, name] : (key ?? name);
}

/** The ticket as SLA conditions see it: routing rules' fields, and its team. */
function slaTicket(facts: TicketSlaFacts, tags: readonly { id: string; name: string }[]): RoutingTicket {
  const values = readJson<{ fieldId: string; value: unknown }[]>(facts.custom_field_values) ?? [];
  return {
    title: facts.title,
    description: facts.description,
    priority: optionNames(facts.priority_key, facts.priority_name),
    status: optionNames(facts.status_key, facts.status_name),
    source: facts.source,
    requestorEmail: facts.requestor_email,
    accountId: facts.account_id,
    type: optionNames(facts.type_key, facts.type_name),
    teamId: facts.team_id,
    tags: tags.flatMap((tag) => [tag.name, tag.id]),
    customFields: Object.fromEntries(
      values.map((entry) => [
        entry.fieldId,
        typeof entry.value === 'object' ? JSON.stringify(entry.value) : (entry.value as string),
      ]),
    ),
  };
}

/**
 * Brings the ticket's targets in line with it after a creation or a change, under its row lock:
 * the first matching policy and its targets for the priority, then pause, resume, met on close
 * and resume on reopen. Does nothing (one statement) in an organization without policies whose
 * ticket has no targets.
 */
export async function reconcileTicketSla(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; ticketId: string; actor: SlaActor; created?: boolean },
): Promise<void> {
  const policies = await listMatchablePolicies(trx, input.organizationId);
  const rows = policies.length > 0 ? await lockTicketTargets(trx, input.ticketId) : await listTicketTargets(trx, input.ticketId);
  if (policies.length === 0 && rows.length === 0) {
    return;
  }
  const facts = await findTicketSlaFacts(trx, input.organizationId, input.ticketId);
  if (!facts) {
    return;
  }
  const clock = new TicketClock(trx, deps, { ...input, teamId: facts.team_id }, input.actor);
  const ticket = slaTicket(facts, await tagsOfTicket(trx, input.ticketId));
  const policy = policies.find((candidate) => matchesRule(candidate.conditions, ticket)) ?? null;
  for (const row of rows) {
    await clock.apply(row, breachIfDue(row, clock.now), SYSTEM);
  }
  const kept = await applyPolicy(clock, trx, deps, { rows, policy, facts, created: input.created ?? false });
  await followStatus(clock, kept, facts);
  await clock.flush();
}

async function applyPolicy(
  clock: TicketClock,
  trx: Transaction<DB>,
  deps: Deps,
  input: { rows: TargetRow[]; policy: MatchablePolicy | null; facts: TicketSlaFacts; created: boolean },
): Promise<TargetRow[]> {
  const { rows, policy, facts } = input;
  const previous = rows[0]?.policy_id ?? null;
  const changed = (policy?.id ?? null) !== previous;
  if (changed && (rows.length > 0 || !input.created)) {
    clock.record('policy_change', policy ? `policy "${policy.name}" applies` : 'no policy applies any more', {
      policyId: policy?.id ?? null,
    });
  }
  const targets = policy?.targets[facts.priority_key] ?? {};
  // A metric the new targets keep keeps its progress (a first reply already met stays met).
  const dropped = rows.filter((row) => targets[row.metric] === undefined);
  await deleteTargets(
    trx,
    dropped.map((row) => row.id),
  );
  const kept = rows.filter((row) => !dropped.includes(row));
  for (const row of kept) {
    const minutes = targets[row.metric];
    if (minutes === undefined || (!changed && Number(row.target_minutes) === minutes) || !policy) {
      continue;
    }
    const terms = {
      target_minutes: minutes,
      policy_id: policy.id,
      business_hours: policy.businessHours,
      ai_replies_count: policy.aiRepliesCount,
      warning_share: policy.warningShare,
    };
    Object.assign(row, terms);
    await updateTarget(trx, row.id, terms);
    const reason = changed ? `policy "${policy.name}" applies` : `priority ${facts.priority_name}`;
    await clock.apply(row, recalculate(row, await clock.scheduleFor(row), clock.now, reason));
  }
  if (!policy) {
    return kept;
  }
  const running = !readBoolean(facts.status_is_closed) && !readBoolean(facts.status_pauses_sla);
  for (const metric of SLA_METRICS) {
    const minutes = targets[metric];
    if (minutes === undefined || kept.some((row) => row.metric === metric)) {
      continue;
    }
    const row = newTarget(deps, clock, { policy, metric, minutes, ticketId: facts.id, organizationId: facts.organization_id });
    await insertTarget(trx, row);
    kept.push(row);
    if (STARTED_ON_APPLY.includes(metric)) {
      const reason = input.created ? 'ticket created' : `policy "${policy.name}" applies`;
      await clock.apply(row, start(row, await clock.scheduleFor(row), clock.now, running, reason));
    }
  }
  return kept;
}

function newTarget(
  deps: Deps,
  clock: TicketClock,
  input: { policy: MatchablePolicy; metric: SlaMetric; minutes: number; ticketId: string; organizationId: string },
): TargetRow {
  const at = clock.now.toISOString();
  return {
    id: deps.ids.ulid(),
    organization_id: input.organizationId,
    ticket_id: input.ticketId,
    policy_id: input.policy.id,
    metric: input.metric,
    status: 'idle',
    target_minutes: input.minutes,
    business_hours: input.policy.businessHours,
    ai_replies_count: input.policy.aiRepliesCount,
    warning_share: input.policy.warningShare,
    started_at: at,
    due_at: null,
    consumed_minutes: 0,
    running_since: null,
    met_at: null,
    breached_at: null,
    warn_at: null,
    warned_at: null,
    breach_notified_at: null,
    updated_at: at,
  };
}

/** Pause in a status that pauses SLAs or when closed, resume out of them; closing meets resolution, reopening resumes it. */
async function followStatus(clock: TicketClock, rows: TargetRow[], facts: TicketSlaFacts): Promise<void> {
  const closed = readBoolean(facts.status_is_closed);
  const paused = readBoolean(facts.status_pauses_sla);
  const reason = `status ${facts.status_name}`;
  for (const row of rows) {
    const schedule = await clock.scheduleFor(row);
    if (row.metric === 'resolution' && closed && isStarted(row)) {
      await clock.apply(row, meet(row, schedule, clock.now, 'ticket closed'));
    } else if (row.metric === 'resolution' && !closed && row.met_at !== null) {
      clock.takeBackMet(row);
      row.met_at = null;
      const step = paused
        ? { changes: { met_at: null, status: 'paused' as const }, event: null }
        : resume(row, schedule, clock.now, 'ticket reopened');
      await clock.apply(row, step);
    } else if (isStarted(row) && row.running_since && (closed || paused)) {
      await clock.apply(row, pause(row, schedule, clock.now, reason));
    } else if (isStarted(row) && !row.running_since && !closed && !paused) {
      await clock.apply(row, resume(row, schedule, clock.now, reason));
    }
  }
}

/**
 * A public reply by an agent (a person, or an AI agent where its policy counts them): meets the
 * first and next reply targets and restarts the periodic update. A ticket without targets costs
 * nothing when the caller read that with the ticket (`hasTargets`), one statement otherwise.
 */
export async function recordSlaAgentReply(
  db: Db,
  deps: Deps,
  /** `hasTargets`: whether the ticket had targets when the caller read it (unknown: looked up). */
  input: { organizationId: string; ticketId: string; actor: SlaActor; ai: boolean; hasTargets?: boolean },
): Promise<void> {
  if (input.hasTargets === false || (await listTicketTargets(db, input.ticketId)).length === 0) {
    return;
  }
  // Its own transaction records no event: the report's counts are written at its end. The ticket's
  // row is taken first, as a (bulk) change takes it before the report rows it writes, so that this
  // transaction never holds targets a change waits for while it waits for that change's report row.
  const writeReports = !db.isTransaction;
  await inTransaction(db as Kysely<DB>, async (trx) => {
    if (writeReports) {
      await lockTicketRow(trx, input.ticketId);
    }
    const rows = (await lockTicketTargets(trx, input.ticketId)).filter((row) => !input.ai || readBoolean(row.ai_replies_count));
    const facts = await findTicketSlaFacts(trx, input.organizationId, input.ticketId);
    if (rows.length === 0 || !facts) {
      return;
    }
    const clock = new TicketClock(trx, deps, { ...input, teamId: facts.team_id }, input.actor);
    const running = !readBoolean(facts.status_is_closed) && !readBoolean(facts.status_pauses_sla);
    const reason = input.ai ? 'public reply by an AI agent' : 'public reply';
    for (const row of rows) {
      const schedule = await clock.scheduleFor(row);
      await clock.apply(row, breachIfDue(row, clock.now), SYSTEM);
      if (isStarted(row) && row.metric !== 'resolution') {
        await clock.apply(row, meet(row, schedule, clock.now, reason));
      }
      if (row.metric === 'periodicUpdate') {
        await clock.apply(row, start(row, schedule, clock.now, running, 'public reply'));
      }
    }
    await clock.flush({ writeReports });
  });
}

/**
 * A customer's public comment starts the next reply target, unless one is already running (it
 * counts from the oldest unanswered comment) or the first reply is still awaited.
 */
export async function recordSlaCustomerComment(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; ticketId: string; actor: SlaActor },
): Promise<void> {
  const rows = await lockTicketTargets(trx, input.ticketId);
  const next = rows.find((row) => row.metric === 'nextReply');
  const first = rows.find((row) => row.metric === 'firstReply');
  if (!next || isStarted(next) || (first && isStarted(first))) {
    return;
  }
  const facts = await findTicketSlaFacts(trx, input.organizationId, input.ticketId);
  if (!facts) {
    return;
  }
  const clock = new TicketClock(trx, deps, { ...input, teamId: facts.team_id }, input.actor);
  const running = !readBoolean(facts.status_is_closed) && !readBoolean(facts.status_pauses_sla);
  await clock.apply(next, start(next, await clock.scheduleFor(next), clock.now, running, 'customer comment'));
  await clock.flush();
}

/** The team's hours changed: running targets of its tickets get new due times, in the change's transaction. */
export async function recalculateTeamSla(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; teamId: string; actor: SlaActor; previous: Schedule | null },
): Promise<void> {
  const rows = await lockRunningTargetsOfTeam(trx, input.organizationId, input.teamId);
  const byTicket = new Map<string, TargetRow[]>();
  for (const row of rows) {
    byTicket.set(row.ticket_id, [...(byTicket.get(row.ticket_id) ?? []), row]);
  }
  for (const [ticketId, targets] of byTicket) {
    const clock = new TicketClock(trx, deps, { ...input, ticketId }, input.actor);
    for (const row of targets) {
      if (readBoolean(row.business_hours)) {
        const schedule = await clock.scheduleFor(row);
        await clock.apply(row, recalculate(row, schedule, clock.now, "team's business hours changed", input.previous));
      }
    }
    await clock.flush();
  }
}

/** A status starts or stops pausing SLAs: the tickets in it pause or resume now, in the change's transaction. */
export async function reconcileTicketsInStatus(
  trx: Transaction<DB>,
  deps: Deps,
  input: { organizationId: string; statusId: string; actor: SlaActor },
): Promise<void> {
  for (const ticketId of await lockTicketsWithTargetsInStatus(trx, input.organizationId, input.statusId)) {
    await reconcileTicketSla(trx, deps, { organizationId: input.organizationId, ticketId, actor: input.actor });
  }
  // No event follows: the breaches the clocks marked are counted now.
  await writePendingReports(trx);
}
