import type { Transaction } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { businessMinutesBetween } from '../business-hours/business-time.js';
import type { Schedule } from '../business-hours/hours.js';
import type { AttachedWrites } from '../events/event.recorder.js';
import { binOf } from './report.bins.js';
import {
  addDailyCounts,
  addDurationBins,
  findClosedStatuses,
  findTeamSchedules,
  findTicketCreatedAt,
  markFirstReply,
} from './report.repository.js';
import {
  type DurationMetric,
  EVERY,
  type ReportDailyCountTable,
  type ReportDurationBinTable,
  type ReportSatisfactionCountTable,
  type ReportSlaCountTable,
} from './report.table.js';
import { addSatisfactionCounts, addSlaCounts } from './report-outcomes.repository.js';
import { REPLY_COUNTS, type ReplyCountRows } from './report-reply.repository.js';

/**
 * Keeps the reports' aggregates (see `report.table.ts`) in the transaction of each change: the
 * ticket recorder calls it on creation and on every change, the comment service on a public reply
 * by a user. Only upserts that add to counts, so concurrent writers never lose one.
 *
 * Lock order: the rows are written after the transaction has taken the event log's lock (the
 * callers write right after their events), so every transaction that holds a report row also holds
 * its organization's event lock and none waits for one while holding the other (a bulk change, whose
 * first ticket takes the event lock, would otherwise deadlock with a single change). A macro's reply,
 * whose event waits for the macro's changes, leaves its rows pending in the transaction
 * (`writePendingReports`) until then.
 */

interface Deps {
  clock: Clock;
}

/** What of a ticket the reports key on, before or after a change. */
export interface ReportedTicketState {
  teamId: string;
  statusId: string;
  assigneeId: string | null;
  /** Soft-deleted: a deleted ticket leaves the backlog without counting as closed. */
  deleted: boolean;
}

type Counts = Pick<ReportDailyCountTable, 'created' | 'closed' | 'reopened' | 'public_replies' | 'backlog_delta'>;

const NO_COUNTS: Counts = { created: 0, closed: 0, reopened: 0, public_replies: 0, backlog_delta: 0 };
export const UTC_CLOSED: Schedule = { timezone: 'UTC', commonDailyConfig: false, commonSlots: [], dailyConfig: {}, holidays: [] };

/** The teams' schedules as the reports read them (a team without a configuration: UTC, never open). */
export async function schedulesOf(trx: Transaction<DB>, teamIds: readonly string[]): Promise<Map<string, Schedule>> {
  const rows = await findTeamSchedules(trx, teamIds);
  return new Map(rows.map((row) => [row.team_id, scheduleOf(row)]));
}

/** A team's hours as read from its configuration's columns (text JSON on SQLite and PostgreSQL alike). */
export interface TeamHoursColumns {
  timezone: string;
  common_daily_config: boolean | number | null;
  common_slots: string | null;
  daily_config: string | null;
  holidays: string | null;
}

function scheduleOf(row: TeamHoursColumns): Schedule {
  return {
    timezone: row.timezone,
    commonDailyConfig: readBoolean(row.common_daily_config),
    commonSlots: readJson(row.common_slots) ?? [],
    dailyConfig: readJson(row.daily_config) ?? {},
    holidays: readJson(row.holidays) ?? [],
  };
}

/** The local date of an instant in a time zone, `YYYY-MM-DD`. */
export function localDay(at: Date, timezone: string): string {
  return DateTime.fromJSDate(at, { zone: timezone }).toISODate() ?? at.toISOString().slice(0, 10);
}

export type ReportKey = { teamId: string; agentId: string | null; day: string };
type SlaCounts = Pick<ReportSlaCountTable, 'met' | 'breached'>;
type SatisfactionCounts = Pick<ReportSatisfactionCountTable, 'sent' | 'responses' | 'good' | 'bad'>;

/** Adds `counts` to the row of `id` in `map`, made from `base` if new. */
function addTo<Row extends object>(map: Map<string, Row>, id: string, base: () => Row, counts: Partial<Row>): void {
  const row = map.get(id) ?? base();
  for (const [name, value] of Object.entries(counts) as [keyof Row, number][]) {
    (row[name] as number) += value;
  }
  map.set(id, row);
}

/** A fact's key and the rollups it adds to: its team's, with every agent, and the organization's (`report.table.ts`). */
function levelsOf(key: ReportKey): ReportKey[] {
  return [key, { teamId: key.teamId, agentId: EVERY, day: key.day }, { teamId: EVERY, agentId: EVERY, day: key.day }];
}

const idOf = (key: ReportKey, ...rest: string[]) => [key.teamId, key.agentId ?? '', key.day, ...rest].join('\u0000');

const sorted = <Row>(map: Map<string, Row>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);

/** Rows being gathered for one change: summed per key, then written sorted (one lock order for every writer). */
class PendingCounts {
  private readonly counts = new Map<string, ReportDailyCountTable>();
  private readonly bins = new Map<string, ReportDurationBinTable>();
  private readonly sla = new Map<string, ReportSlaCountTable>();
  private readonly satisfaction = new Map<string, ReportSatisfactionCountTable>();

  constructor(private readonly organizationId: string) {}

  add(key: ReportKey, counts: Partial<Counts>): void {
    for (const level of levelsOf(key)) {
      addTo(this.counts, idOf(level), () => ({ ...this.keyed(level), ...NO_COUNTS }), counts);
    }
  }

  private keyed(key: ReportKey) {
    return { organization_id: this.organizationId, team_id: key.teamId, agent_id: key.agentId ?? '', day: key.day };
  }

  addSla(key: ReportKey, policyId: string, metric: ReportSlaCountTable['metric'], counts: Partial<SlaCounts>): void {
    for (const level of levelsOf(key)) {
      const id = idOf(level, policyId, metric);
      addTo(this.sla, id, () => ({ ...this.keyed(level), policy_id: policyId, metric, met: 0, breached: 0 }), counts);
    }
  }

  addSatisfaction(key: ReportKey, counts: Partial<SatisfactionCounts>): void {
    for (const level of levelsOf(key)) {
      addTo(this.satisfaction, idOf(level), () => ({ ...this.keyed(level), sent: 0, responses: 0, good: 0, bad: 0 }), counts);
    }
  }

  addDuration(key: ReportKey, metric: DurationMetric, minutes: number): void {
    const bin = binOf(minutes);
    for (const level of levelsOf(key)) {
      const id = idOf(level, metric, String(bin).padStart(6, '0'));
      addTo(this.bins, id, () => ({ ...this.keyed(level), metric, bin, count: 0 }), { count: 1 });
    }
  }

  private readonly firstReplies: FirstReply[] = [];

  /** The daily counts that changed and the bins, each sorted by key (one lock order for every writer). */
  sortedRows(): { counts: ReportDailyCountTable[]; bins: ReportDurationBinTable[] } {
    const changed = (row: ReportDailyCountTable) => Object.keys(NO_COUNTS).some((name) => row[name as keyof Counts] !== 0);
    return { counts: sorted(this.counts).filter(changed), bins: sorted(this.bins) };
  }

  addFirstReply(reply: FirstReply): void {
    this.firstReplies.push(reply);
  }

  async write(trx: Transaction<DB>): Promise<void> {
    for (const reply of this.firstReplies.splice(0)) {
      const repliedAt = reply.span.to.toISOString();
      const row = { ticket_id: reply.ticketId, organization_id: this.organizationId, replied_at: repliedAt };
      if (await markFirstReply(trx, row)) {
        addDurations(this, reply.key, 'first_reply', reply.span);
      }
    }
    const { counts, bins } = this.sortedRows();
    await addDailyCounts(trx, counts);
    await addDurationBins(trx, bins);
    await addSlaCounts(
      trx,
      sorted(this.sla).filter((row) => row.met !== 0 || row.breached !== 0),
    );
    await addSatisfactionCounts(trx, sorted(this.satisfaction));
    this.counts.clear();
    this.bins.clear();
    this.sla.clear();
    this.satisfaction.clear();
  }
}

interface FirstReply {
  ticketId: string;
  key: { teamId: string; agentId: string | null; day: string };
  span: { from: Date; to: Date; schedule: Schedule };
}

/** Rows a transaction gathered and has not written yet (a macro's reply, see the top). */
const pendingOfTransactions = new WeakMap<Transaction<DB>, PendingCounts>();

export function pendingOf(trx: Transaction<DB>, organizationId: string): PendingCounts {
  const pending = pendingOfTransactions.get(trx) ?? new PendingCounts(organizationId);
  pendingOfTransactions.set(trx, pending);
  return pending;
}

/** Writes the rows the transaction gathered; call once its event log lock is held. */
export async function writePendingReports(trx: Transaction<DB>): Promise<void> {
  const pending = pendingOfTransactions.get(trx);
  if (pending) {
    pendingOfTransactions.delete(trx);
    await pending.write(trx);
  }
}

function addDurations(
  pending: PendingCounts,
  key: { teamId: string; agentId: string | null; day: string },
  kind: 'first_reply' | 'resolution',
  span: { from: Date; to: Date; schedule: Schedule },
): void {
  const calendar = Math.floor((span.to.getTime() - span.from.getTime()) / 60_000);
  pending.addDuration(key, `${kind}_calendar`, calendar);
  pending.addDuration(key, `${kind}_business`, businessMinutesBetween(span.schedule, span.from, span.to));
}

/** A new ticket: created, and open (backlog) or, if created closed, closed at once. */
export async function recordCreationForReports(
  trx: Transaction<DB>,
  deps: Deps,
  organizationId: string,
  ticket: ReportedTicketState,
): Promise<void> {
  const now = deps.clock.now();
  const closed = (await findClosedStatuses(trx, [ticket.statusId])).get(ticket.statusId) ?? false;
  const schedule = (await schedulesOf(trx, [ticket.teamId])).get(ticket.teamId) ?? UTC_CLOSED;
  const key = { teamId: ticket.teamId, agentId: ticket.assigneeId, day: localDay(now, schedule.timezone) };
  const pending = pendingOf(trx, organizationId);
  pending.add(key, closed ? { created: 1, closed: 1 } : { created: 1, backlog_delta: 1 });
  if (closed) {
    addDurations(pending, key, 'resolution', { from: now, to: now, schedule });
  }
  await writePendingReports(trx);
}

/**
 * A change of a ticket: nothing unless its status, team or assignee changed. A close counts
 * `closed` and a resolution sample (created to now) in the key after; a reopen counts `reopened`;
 * an open ticket leaves the backlog of its key before and joins that of its key after (a deleted
 * ticket only leaves it).
 */
export async function recordChangeForReports(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: { organizationId: string; ticketId: string },
  before: ReportedTicketState,
  after: ReportedTicketState,
): Promise<void> {
  await gatherChange(trx, deps, ticket, before, after);
  await writePendingReports(trx);
}

async function gatherChange(
  trx: Transaction<DB>,
  deps: Deps,
  ticket: { organizationId: string; ticketId: string },
  before: ReportedTicketState,
  after: ReportedTicketState,
): Promise<void> {
  const keyed = (state: ReportedTicketState) => [state.statusId, state.teamId, state.assigneeId, state.deleted].join(' ');
  if (keyed(before) === keyed(after)) {
    return;
  }
  const now = deps.clock.now();
  const closedStatuses = await findClosedStatuses(trx, [before.statusId, after.statusId]);
  const wasOpen = !closedStatuses.get(before.statusId) && !before.deleted;
  const isOpen = !closedStatuses.get(after.statusId) && !after.deleted;
  if (!wasOpen && !isOpen) {
    return;
  }
  const schedules = await schedulesOf(trx, [before.teamId, after.teamId]);
  const keyOf = (state: ReportedTicketState) => ({
    teamId: state.teamId,
    agentId: state.assigneeId,
    day: localDay(now, (schedules.get(state.teamId) ?? UTC_CLOSED).timezone),
  });
  const pending = pendingOf(trx, ticket.organizationId);
  if (wasOpen) {
    pending.add(keyOf(before), { backlog_delta: -1 });
  }
  if (isOpen) {
    pending.add(keyOf(after), { backlog_delta: 1, reopened: wasOpen ? 0 : 1 });
  } else if (!after.deleted) {
    pending.add(keyOf(after), { closed: 1 });
    const createdAt = await findTicketCreatedAt(trx, ticket.ticketId);
    if (createdAt) {
      const schedule = schedules.get(after.teamId) ?? UTC_CLOSED;
      addDurations(pending, keyOf(after), 'resolution', { from: new Date(createdAt), to: now, schedule });
    }
  }
}

/**
 * A public reply by a user (not a customer, not an AI agent): counted for the replying user, and,
 * if it is the ticket's first (the insert into `report_first_replies` that wins), its first reply
 * time (created to now).
 */
export async function recordPublicReplyForReports(
  trx: Transaction<DB>,
  deps: Deps,
  reply: { organizationId: string; ticketId: string; teamId: string; ticketCreatedAt: string; userId: string },
  /** The reply's event waits for more changes of the transaction: leave the rows for `writePendingReports`. */
  options: { later?: boolean } = {},
): Promise<void> {
  const now = deps.clock.now();
  const schedule = (await schedulesOf(trx, [reply.teamId])).get(reply.teamId) ?? UTC_CLOSED;
  const key = { teamId: reply.teamId, agentId: reply.userId, day: localDay(now, schedule.timezone) };
  const pending = pendingOf(trx, reply.organizationId);
  pending.add(key, { public_replies: 1 });
  pending.addFirstReply({ ticketId: reply.ticketId, key, span: { from: new Date(reply.ticketCreatedAt), to: now, schedule } });
  if (!options.later) {
    await writePendingReports(trx);
  }
}

/**
 * A public reply by a user as counts attached to its insert (`insertRecordingEvent`), so that they
 * are written with it, in the same statement on PostgreSQL: what `recordPublicReplyForReports`
 * counts. `firstReplied`: the ticket had its first reply already, as its read saw it (a reply that
 * loses the race for the first is not counted as the first all the same: its mark's insert loses).
 */
export function publicReplyCounts(
  deps: Deps,
  reply: {
    organizationId: string;
    ticketId: string;
    teamId: string;
    ticketCreatedAt: string;
    userId: string;
    firstReplied: boolean;
    /** The team's hours, read with the ticket; null when it has none (UTC, never open). */
    teamHours: TeamHoursColumns | null;
  },
): AttachedWrites<ReplyCountRows> {
  const now = deps.clock.now();
  // The day needs only the time zone; the hours themselves (JSON to parse) only a first reply's duration.
  const timezone = reply.teamHours?.timezone ?? UTC_CLOSED.timezone;
  const key = { teamId: reply.teamId, agentId: reply.userId, day: localDay(now, timezone) };
  const counts = new PendingCounts(reply.organizationId);
  counts.add(key, { public_replies: 1 });
  let firstReply: ReplyCountRows['firstReply'] = null;
  if (!reply.firstReplied) {
    const times = new PendingCounts(reply.organizationId);
    const schedule = reply.teamHours ? scheduleOf(reply.teamHours) : UTC_CLOSED;
    addDurations(times, key, 'first_reply', { from: new Date(reply.ticketCreatedAt), to: now, schedule });
    const mark = { ticket_id: reply.ticketId, organization_id: reply.organizationId, replied_at: now.toISOString() };
    firstReply = { mark, bins: times.sortedRows().bins };
  }
  return { kind: REPLY_COUNTS, rows: { counts: counts.sortedRows().counts, firstReply } };
}
