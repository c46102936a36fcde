import { describe, expect, it } from 'vitest';
import { type SlaTarget, slaTargetState } from './sla-target-state';

const NOW = Date.parse('2026-01-15T10:00:00.000Z');
const target = (fields: Partial<SlaTarget>): SlaTarget => ({
  metric: 'firstReply',
  dueAt: '2026-01-15T10:41:30.000Z',
  status: 'active',
  breachedAt: null,
  metAt: null,
  ...fields,
});

describe("the ticket page's SLA line", () => {
  it('counts an active target down, then reads breached once the clock passes it', () => {
    expect(slaTargetState(target({}), NOW)).toEqual({ kind: 'due', text: 'Due in 42 min', at: '2026-01-15T10:41:30.000Z' });
    expect(slaTargetState(target({ dueAt: '2026-01-15T09:55:00.000Z' }), NOW)).toEqual({
      kind: 'breached',
      text: 'Breached 5 min ago',
      at: '2026-01-15T09:55:00.000Z',
    });
  });

  it('keeps a target the server marked breached so, from its breach time, even when the client clock lags', () => {
    const breached = target({ status: 'breached', breachedAt: '2026-01-15T09:30:00.000Z' });
    expect(slaTargetState(breached, NOW)).toMatchObject({ kind: 'breached', text: 'Breached 30 min ago' });
    expect(slaTargetState(breached, Date.parse('2026-01-15T09:00:00.000Z'))).toMatchObject({
      kind: 'breached',
      text: 'Breached',
    });
  });

  it('shows met with its time, paused, and a target without a due time as waiting', () => {
    const metAt = '2026-01-15T09:20:00.000Z';
    expect(slaTargetState(target({ status: 'met', metAt }), NOW)).toEqual({ kind: 'met', at: metAt });
    expect(slaTargetState(target({ status: 'paused', dueAt: null }), NOW)).toEqual({ kind: 'paused' });
    expect(slaTargetState(target({ dueAt: null }), NOW)).toEqual({ kind: 'waiting' });
  });
});
