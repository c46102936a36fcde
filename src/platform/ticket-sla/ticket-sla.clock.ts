import { readBoolean } from '../../db/dialect.js';
import { addBusinessMinutes, businessMinutesBetween } from '../business-hours/business-time.js';
import type { Schedule } from '../business-hours/hours.js';
import type { TicketTargetRow } from './ticket-sla.repository.js';
import type { SlaEventKind } from './ticket-sla.table.js';

/**
 * The SLA clock of one target, as pure steps on its row: start, pause, resume, meet, breach,
 * recalculate. Each answers the columns to write and the event to record; the service writes them.
 * A running target has `running_since` and a `due_at`; a stopped one keeps its consumed minutes.
 */

export type TargetRow = TicketTargetRow;
export interface Step {
  changes: Partial<TargetRow>;
  event: { kind: SlaEventKind; reason: string; dueAt: string | null } | null;
}

const iso = (date: Date) => date.toISOString();

/** The schedule a target counts in: the team's hours when its policy says business hours, else calendar time. */
export const scheduleOf = (row: Pick<TargetRow, 'business_hours'>, teamSchedule: Schedule | null) =>
  readBoolean(row.business_hours) ? teamSchedule : null;

/** Business minutes consumed up to `now`, the running stretch included. */
export function consumedAt(row: TargetRow, schedule: Schedule | null, now: Date): number {
  const running = row.running_since ? businessMinutesBetween(schedule, new Date(row.running_since), now) : 0;
  return Number(row.consumed_minutes) + running;
}

/** Due and warning times of a target that runs from `from` with `consumed` minutes already spent. */
export function timesFrom(row: TargetRow, schedule: Schedule | null, from: Date, consumed: number) {
  const target = Number(row.target_minutes);
  const warnAfter = Math.max(0, target * Number(row.warning_share) - consumed);
  return {
    due_at: iso(addBusinessMinutes(schedule, from, Math.max(0, target - consumed))),
    warn_at: row.warned_at ? row.warn_at : iso(addBusinessMinutes(schedule, from, warnAfter)),
  };
}

export const isStarted = (row: TargetRow) => row.status !== 'idle' && row.met_at === null;

/** A fresh instance of the target, running from `now` (or stopped, when the ticket's status pauses clocks). */
export function start(row: TargetRow, schedule: Schedule | null, now: Date, running: boolean, reason: string): Step {
  const fresh = { ...row, consumed_minutes: 0, warned_at: null };
  const times = running ? timesFrom(fresh, schedule, now, 0) : { due_at: null, warn_at: null };
  return {
    changes: {
      status: running ? 'active' : 'paused',
      started_at: iso(now),
      consumed_minutes: 0,
      running_since: running ? iso(now) : null,
      met_at: null,
      breached_at: null,
      warned_at: null,
      breach_notified_at: null,
      ...times,
    },
    event: { kind: 'start', reason, dueAt: times.due_at },
  };
}

export function pause(row: TargetRow, schedule: Schedule | null, now: Date, reason: string): Step {
  return {
    changes: {
      status: row.status === 'breached' ? 'breached' : 'paused',
      consumed_minutes: consumedAt(row, schedule, now),
      running_since: null,
      due_at: row.status === 'breached' ? row.due_at : null,
    },
    event: { kind: 'pause', reason, dueAt: null },
  };
}

export function resume(row: TargetRow, schedule: Schedule | null, now: Date, reason: string): Step {
  const times = timesFrom(row, schedule, now, Number(row.consumed_minutes));
  const breached = row.breached_at !== null;
  return {
    changes: {
      status: breached ? 'breached' : 'active',
      running_since: iso(now),
      met_at: null,
      ...times,
      ...(breached && { due_at: row.due_at }),
    },
    event: { kind: 'resume', reason, dueAt: times.due_at },
  };
}

export function meet(row: TargetRow, schedule: Schedule | null, now: Date, reason: string): Step {
  return {
    changes: {
      status: row.breached_at ? 'breached' : 'met',
      consumed_minutes: consumedAt(row, schedule, now),
      running_since: null,
      met_at: iso(now),
    },
    event: { kind: 'met', reason, dueAt: row.due_at },
  };
}

/** A running target past its due time is breached (once); its clock keeps running until it is met. */
export function breachIfDue(row: TargetRow, now: Date): Step | null {
  if (row.status !== 'active' || !row.due_at || new Date(row.due_at) > now) {
    return null;
  }
  return {
    changes: { status: 'breached', breached_at: row.due_at },
    event: { kind: 'breach', reason: `due at ${row.due_at} passed`, dueAt: row.due_at },
  };
}

/**
 * New due time for a running target after its target minutes or the team's hours changed; the time
 * already run is counted in `pastSchedule` (the hours before the change), the rest in `schedule`.
 */
export function recalculate(
  row: TargetRow,
  schedule: Schedule | null,
  now: Date,
  reason: string,
  pastSchedule: Schedule | null = schedule,
): Step {
  if (!row.running_since || row.met_at) {
    return { changes: {}, event: null };
  }
  const consumed = consumedAt(row, pastSchedule, now);
  const times = timesFrom(row, schedule, now, consumed);
  return {
    changes: { consumed_minutes: consumed, running_since: iso(now), ...times, ...(row.breached_at && { due_at: row.due_at }) },
    event: { kind: 'recalculated', reason, dueAt: times.due_at },
  };
}
