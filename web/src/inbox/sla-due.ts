import type { Ticket } from '../api/types';
import { slaCountdown } from '../ui/sla-countdown';

/** What the inbox's Due column shows of a ticket's SLA: a countdown, a breach, a pause, or nothing. */
export type SlaDue =
  | { kind: 'due'; at: string; text: string }
  | { kind: 'breached'; at: string; text: string }
  | { kind: 'paused'; text: string }
  | null;

type Target = NonNullable<Ticket['sla']>['targets'][number];

/**
 * The ticket's earliest running target at `now` (the client's clock, so the column counts down
 * without refetching): an active one due later reads "in 42 min"; one past due, or marked breached
 * and not met yet, "Breached 5 min ago" (a marked breach "Breached just now" while the client's
 * clock is still behind the server's: the server's word wins). Else "Paused" when a target waits in
 * a pausing status, and nothing for a ticket without SLA or whose targets are all met.
 */
export function slaDueOf(sla: Ticket['sla'], now: number): SlaDue {
  const targets: Target[] = sla?.targets ?? [];
  const times = targets.flatMap((target) => {
    if (target.status === 'active' && target.dueAt) {
      return [{ at: target.dueAt, marked: false }];
    }
    const breachedAt = target.breachedAt ?? target.dueAt;
    return target.status === 'breached' && target.metAt === null && breachedAt ? [{ at: breachedAt, marked: true }] : [];
  });
  const earliest = times.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))[0];
  if (earliest !== undefined) {
    const countdown = slaCountdown(earliest.at, now);
    if (earliest.marked && countdown.kind === 'due') {
      return { kind: 'breached', at: earliest.at, text: 'Breached just now' };
    }
    return { ...countdown, at: earliest.at };
  }
  return targets.some((target) => target.status === 'paused') ? { kind: 'paused', text: 'Paused' } : null;
}
