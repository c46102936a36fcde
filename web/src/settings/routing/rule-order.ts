/**
 * Moving a rule within its team's order through the API, which keeps evaluation orders unique per
 * team: the moved rule is parked on a free order first, the rules between shift one place each
 * (in the order that never lands on a taken one), then the moved rule takes its new place. Every
 * step leaves a valid order, so a failure halfway loses no rule.
 */
export interface OrderedRule {
  id: string;
  evaluationOrder: number;
}

export interface OrderChange {
  ruleId: string;
  evaluationOrder: number;
}

/** PostgreSQL's `integer`, the column's type. */
const MAX_ORDER = 2_147_483_647;

/** The PATCHes that move the rule at `from` to `to` in `rules` (sorted by evaluation order); none when it stays. */
export function planMove(rules: readonly OrderedRule[], from: number, to: number): OrderChange[] {
  const moved = rules[from];
  if (!moved || from === to || to < 0 || to >= rules.length) {
    return [];
  }
  const orders = rules.map((rule) => rule.evaluationOrder);
  const changes: OrderChange[] = [{ ruleId: moved.id, evaluationOrder: parkingOrder(orders) }];
  if (to < from) {
    for (let index = from - 1; index >= to; index--) {
      changes.push({ ruleId: ruleAt(rules, index).id, evaluationOrder: orderAt(orders, index + 1) });
    }
  } else {
    for (let index = from + 1; index <= to; index++) {
      changes.push({ ruleId: ruleAt(rules, index).id, evaluationOrder: orderAt(orders, index - 1) });
    }
  }
  changes.push({ ruleId: moved.id, evaluationOrder: orderAt(orders, to) });
  return changes;
}

/** The list as it will read once the move is done, for showing it at once. */
export function applyMove<Rule>(rules: readonly Rule[], from: number, to: number): Rule[] {
  const next = [...rules];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) {
    next.splice(to, 0, moved);
  }
  return next;
}

function parkingOrder(orders: number[]): number {
  const highest = Math.max(...orders);
  if (highest < MAX_ORDER) {
    return highest + 1;
  }
  let free = 0;
  while (orders.includes(free)) {
    free++;
  }
  return free;
}

function ruleAt(rules: readonly OrderedRule[], index: number): OrderedRule {
  const rule = rules[index];
  if (!rule) {
    throw new RangeError(`no rule at ${index}`);
  }
  return rule;
}

function orderAt(orders: number[], index: number): number {
  const order = orders[index];
  if (order === undefined) {
    throw new RangeError(`no order at ${index}`);
  }
  return order;
}
