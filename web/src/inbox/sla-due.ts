import type { Ticket } from '../api/types';

/** What the inbox's Due column shows of a ticket's SLA: a countdown, a breach, a pause, or nothing. */
export type SlaDue =
  | { kind: 'due'; at: string; text: string }
  | { kind: 'breached'; at: string; text: string }
  | { kind: 'paused'; text: string }
  | null;

type Target = NonNullable<Ticket['sla']>['targets'][number];

const MINUTE = 60_000;

/** "42 min", "3 h", "2 d": a span in the room of a column, rounded down to the unit. */
function span(ms: number): string {
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 60) {
    return `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

/**
 * The ticket's earliest running target at `now` (the client's clock, so the column counts down
 * without refetching): an active one due later reads "in 42 min"; one past due, or marked breached
 * and not met yet, "Breached 5 min ago". Else "Paused" when a target waits in a pausing status, and
 * nothing for a ticket without SLA or whose targets are all met.
 */
export function slaDueOf(sla: Ticket['sla'], now: number): SlaDue {
  const targets: Target[] = sla?.targets ?? [];
  const times = targets.flatMap((target) => {
    if (target.status === 'active' && target.dueAt) {
      return [target.dueAt];
    }
    const breachedAt = target.breachedAt ?? target.dueAt;
    return target.status === 'breached' && target.metAt === null && breachedAt ? [breachedAt] : [];
  });
  const earliest = times.sort()[0];
  if (earliest !== undefined) {
    const left = Date.parse(earliest) - now;
    if (left > 0) {
      // Rounded up: "in 1 min" until the last second, never "in 0 min".
      return { kind: 'due', at: earliest, text: `in ${span(left + MINUTE - 1)}` };
    }
    return { kind: 'breached', at: earliest, text: -left < MINUTE ? 'Breached just now' : `Breached ${span(-left)} ago` };
  }
  return targets.some((target) => target.status === 'paused') ? { kind: 'paused', text: 'Paused' } : null;
}
