import { describe, expect, it } from 'vitest';
import { slaDueOf } from './sla-due';

const NOW = Date.parse('2026-01-15T10:00:00.000Z');
type Sla = Parameters<typeof slaDueOf>[0];
const target = (fields: Partial<NonNullable<Sla>['targets'][number]>) => ({
  metric: 'firstReply' as const,
  dueAt: null,
  status: 'active' as const,
  breachedAt: null,
  metAt: null,
  ...fields,
});
const sla = (...targets: ReturnType<typeof target>[]): Sla => ({ policyId: 'p', targets });

describe('the Due column', () => {
  it('counts down to the earliest running target, rounded up to the minute', () => {
    const due = sla(
      target({ metric: 'resolution', dueAt: '2026-01-15T13:30:00.000Z' }),
      target({ dueAt: '2026-01-15T10:41:30.000Z' }),
    );
    expect(slaDueOf(due, NOW)).toEqual({ kind: 'due', at: '2026-01-15T10:41:30.000Z', text: 'in 42 min' });
    expect(slaDueOf(sla(target({ dueAt: '2026-01-15T13:30:00.000Z' })), NOW)?.text).toBe('in 3 h');
    expect(slaDueOf(sla(target({ dueAt: '2026-01-18T10:00:00.000Z' })), NOW)?.text).toBe('in 3 d');
    expect(slaDueOf(sla(target({ dueAt: '2026-01-15T10:00:01.000Z' })), NOW)?.text).toBe('in 1 min');
  });

  it('reads breached once the client clock passes the due time, or when the server marked it', () => {
    expect(slaDueOf(sla(target({ dueAt: '2026-01-15T09:55:00.000Z' })), NOW)).toEqual({
      kind: 'breached',
      at: '2026-01-15T09:55:00.000Z',
      text: 'Breached 5 min ago',
    });
    expect(slaDueOf(sla(target({ dueAt: '2026-01-15T09:59:30.000Z' })), NOW)?.text).toBe('Breached just now');
    const marked = target({ status: 'breached', dueAt: '2026-01-15T07:00:00.000Z', breachedAt: '2026-01-15T07:00:00.000Z' });
    expect(slaDueOf(sla(marked), NOW)?.text).toBe('Breached 3 h ago');
    // Marked by the server while the client's clock is still behind the breach: breached all the same.
    const ahead = target({ status: 'breached', dueAt: '2026-01-15T10:02:00.000Z', breachedAt: '2026-01-15T10:03:00.000Z' });
    expect(slaDueOf(sla(ahead), NOW)).toEqual({ kind: 'breached', at: '2026-01-15T10:03:00.000Z', text: 'Breached just now' });
    // Met late: nothing left to count.
    expect(slaDueOf(sla({ ...marked, metAt: '2026-01-15T08:00:00.000Z' }), NOW)).toBeNull();
  });

  it('says Paused in a pausing status, and nothing without SLA or once every target is met', () => {
    expect(slaDueOf(sla(target({ status: 'paused' })), NOW)).toEqual({ kind: 'paused', text: 'Paused' });
    expect(slaDueOf(null, NOW)).toBeNull();
    expect(slaDueOf(sla(target({ status: 'met', metAt: '2026-01-15T09:00:00.000Z' })), NOW)).toBeNull();
  });
});
