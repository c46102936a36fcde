import { describe, expect, it } from 'vitest';
import { applyMove, planMove } from './rule-order';

const rules = [
  { id: 'a', evaluationOrder: 0 },
  { id: 'b', evaluationOrder: 1 },
  { id: 'c', evaluationOrder: 5 },
];

/** Replays the changes, failing as the API would on a taken order. */
function replay(changes: ReturnType<typeof planMove>) {
  const orders = new Map(rules.map((rule) => [rule.id, rule.evaluationOrder]));
  for (const change of changes) {
    const holder = [...orders].find(([id, order]) => order === change.evaluationOrder && id !== change.ruleId);
    expect(holder, `order ${change.evaluationOrder} is taken`).toBeUndefined();
    orders.set(change.ruleId, change.evaluationOrder);
  }
  return [...orders].sort((x, y) => x[1] - y[1]).map(([id]) => id);
}

describe('moving a rule', () => {
  it('moves up and down without ever taking an order another rule holds', () => {
    expect(replay(planMove(rules, 2, 0))).toEqual(['c', 'a', 'b']);
    expect(replay(planMove(rules, 0, 2))).toEqual(['b', 'c', 'a']);
    expect(replay(planMove(rules, 1, 0))).toEqual(['b', 'a', 'c']);
  });

  it('keeps the orders the team uses, parking the moved rule past the highest', () => {
    expect(planMove(rules, 0, 1)).toEqual([
      { ruleId: 'a', evaluationOrder: 6 },
      { ruleId: 'b', evaluationOrder: 0 },
      { ruleId: 'a', evaluationOrder: 1 },
    ]);
  });

  it('does nothing for a move in place or out of the list', () => {
    expect(planMove(rules, 1, 1)).toEqual([]);
    expect(planMove(rules, 0, 3)).toEqual([]);
    expect(applyMove(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });
});
