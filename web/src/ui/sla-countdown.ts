import type { SlaMetric } from '../../../src/shared/sla';

/** The SLA metrics in the console's words, for the ticket page's SLA section. */
export const SLA_METRIC_LABELS: Record<SlaMetric, string> = {
  firstReply: 'First reply',
  nextReply: 'Next reply',
  periodicUpdate: 'Periodic update',
  resolution: 'Resolution',
};

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
 * A due time read at `now` (the client's clock, so a countdown moves without refetching): "in 42 min"
 * (rounded up: "in 1 min" until the last second, never "in 0 min") while it is ahead, then
 * "Breached 5 min ago".
 */
export function slaCountdown(dueAt: string, now: number): { kind: 'due' | 'breached'; text: string } {
  const left = Date.parse(dueAt) - now;
  if (left > 0) {
    return { kind: 'due', text: `in ${span(left + MINUTE - 1)}` };
  }
  return { kind: 'breached', text: -left < MINUTE ? 'Breached just now' : `Breached ${span(-left)} ago` };
}
