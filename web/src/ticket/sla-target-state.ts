import type { Ticket } from '../api/types';
import { slaCountdown } from '../ui/sla-countdown';

export type SlaTarget = NonNullable<Ticket['sla']>['targets'][number];

/** One SLA target's state at `now` (the client's clock): a countdown, a breach (danger), met with its time, or paused. */
export type SlaTargetState =
  | { kind: 'due' | 'breached'; text: string; at: string }
  | { kind: 'met'; at: string }
  | { kind: 'paused' }
  | { kind: 'waiting' };

/**
 * An active target counts down ("Due in 42 min") and turns to "Breached 5 min ago" when the clock
 * passes it; a met one shows when; a paused one, Paused; one without a due time yet, waiting.
 */
export function slaTargetState(target: SlaTarget, now: number): SlaTargetState {
  if (target.status === 'met' && target.metAt) {
    return { kind: 'met', at: target.metAt };
  }
  if (target.status === 'paused') {
    return { kind: 'paused' };
  }
  const at = target.status === 'breached' ? (target.breachedAt ?? target.dueAt) : target.dueAt;
  if (!at) {
    return { kind: 'waiting' };
  }
  const countdown = slaCountdown(at, now);
  // The server's word wins: a target it marked breached stays so even if the client's clock lags.
  if (target.status === 'breached' && countdown.kind === 'due') {
    return { kind: 'breached', text: 'Breached', at };
  }
  return { ...countdown, text: countdown.kind === 'due' ? `Due ${countdown.text}` : countdown.text, at };
}
