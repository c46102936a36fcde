import { describe, expect, it } from 'vitest';
import type { SlaPolicy } from './sla-policy-api';
import { priorityKey, SlaPolicyFormSchema, slaPolicyFormValues, slaPolicyInput } from './sla-policy-form';

const policy = {
  id: '01J0000000000000000000000A',
  name: 'VIP',
  description: null,
  position: 0,
  andRules: ['{"field":"priority","operator":"equals","value":"urgent"}'],
  orRules: [],
  targets: { urgent: { firstReply: 30, resolution: 480 }, legacy: { nextReply: 90 } },
  businessHours: false,
  aiRepliesCount: true,
  warningShare: 0.8,
  createdById: '01J0000000000000000000000B',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} satisfies SlaPolicy;

describe('SLA policy form', () => {
  it('shows a row per priority, the policy’s own included, and saves what it read', () => {
    const values = slaPolicyFormValues(policy, ['low', 'urgent']);
    expect(Object.keys(values.targets)).toEqual(['low', 'urgent', 'legacy']);
    expect(values.targets.urgent).toEqual({ firstReply: '30 min', nextReply: '', periodicUpdate: '', resolution: '8 h' });
    expect(values).toMatchObject({ clock: 'calendar', aiRepliesCount: true, warningPercent: '80' });
    const { id, position, createdById, createdAt, updatedAt, ...fields } = policy;
    expect(slaPolicyInput(values)).toEqual(fields);
  });

  it('starts a new policy on business hours, warning at 75%', () => {
    const input = slaPolicyInput({ ...slaPolicyFormValues(undefined, ['high']), name: ' New ' });
    expect(input).toEqual({
      name: 'New',
      description: null,
      andRules: [],
      orRules: [],
      targets: {},
      businessHours: true,
      aiRepliesCount: false,
      warningShare: 0.75,
    });
  });

  it('refuses a duration it cannot read and a warning outside 1–99%', () => {
    const values = slaPolicyFormValues(undefined, ['high']);
    const bad = { ...values, name: 'x', warningPercent: '100', targets: { high: { firstReply: 'soon' } } };
    const issues = SlaPolicyFormSchema.safeParse(bad).error?.issues.map((issue) => issue.path.join('.'));
    expect(issues).toEqual(['targets.high.firstReply', 'warningPercent']);
  });

  it("keys targets by the priority's key, which the defaults' display names give", () => {
    expect(['Low', 'Medium', 'High', 'Urgent'].map(priorityKey)).toEqual(['low', 'medium', 'high', 'urgent']);
    expect(priorityKey(' Very high! ')).toBe('very_high');
  });
});
